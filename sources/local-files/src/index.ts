import { projectDirectorySource } from '@basin/sdk';

/**
 * `local_files`: every CSV, JSON, JSONL/NDJSON or Parquet file matching `file_pattern` in a project
 * directory, loaded into one table named after the source. Re-syncs load new and modified files
 * and drop the rows of deleted ones.
 */
export default projectDirectorySource({
  type: 'local_files',
  title: 'Local files',
  wizard: true,
  defaultPattern: '*',
  docs: 'Loads every matching CSV, JSON, JSONL/NDJSON or Parquet file of a project directory into one raw table; new and modified files load on re-sync and deleted files are removed.',
});
