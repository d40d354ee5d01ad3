import { defineErrors } from '@basin/core';

/** The sync plugin's error codes (sync runs, uploads and the files of file-directory sources). */
export const syncErrors = defineErrors('sync', {
  sync_in_progress: { status: 409, message: (a: { source: string }) => `Source "${a.source}" is already syncing; wait for it to finish or cancel it.` },
  not_a_file_source: { status: 400, message: (a: { source: string; type: string }) => `Source "${a.source}" (type ${a.type}) does not read files from a directory.` },
  multipart_required: { status: 400, message: 'Send the file as multipart/form-data in a field named "file".' },
  file_required: { status: 400, message: 'No file in the upload; send it in a field named "file".' },
  unsupported_file_type: { status: 400, message: (a: { filename: string }) => `"${a.filename}" is not an accepted file type; upload .csv, .json, .jsonl, .ndjson or .parquet.` },
  invalid_file_content: { status: 400, message: (a: { filename: string; format: string; problem: string }) => `"${a.filename}" is not a valid ${a.format.toUpperCase()} file: ${a.problem}.` },
  invalid_file_name: { status: 400, message: 'The file name is not allowed.' },
  path_outside_directory: { status: 400, message: (a: { reason: string }) => a.reason },
  not_a_file: { status: 400, message: (a: { reason: string }) => a.reason },
  invalid_date: { status: 400, message: (a: { field: string; value: string }) => `${a.field} "${a.value}" is not a real date` },
  teardown_failed: {
    status: 409,
    message: (a: { source: string; reason: string }) => `Source "${a.source}" was not removed: undoing what it set up outside Basin failed: ${a.reason} Fix that and retry, or remove it with keep_external=true and clean up by hand.`,
  },
  invalid_date_range: { status: 400, message: (a: { start: string; end: string }) => `end_date ${a.end} is before start_date ${a.start}` },
});
