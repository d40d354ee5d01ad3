import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFileSource, malformedRowsSchema, SourceError, Type } from '@basin/sdk';

const configSchema = Type.Object(
  {
    bucket_url: Type.String({ minLength: 1, description: 'A local directory (absolute, or relative to the project) or a file:// URL' }),
    file_glob: Type.String({ minLength: 1, default: '*', description: 'Glob of the files to load; `**/` recurses' }),
    notes: Type.Optional(Type.String()),
    malformed_rows: malformedRowsSchema(),
  },
  { additionalProperties: false },
);

/** The local directory a bucket_url names; remote schemes are not available yet. */
export function localDirectory(projectDir: string, bucketUrl: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(bucketUrl)?.[1]?.toLowerCase();
  if (!scheme) return path.resolve(projectDir, bucketUrl);
  if (scheme === 'file') {
    try {
      return fileURLToPath(bucketUrl);
    } catch (err) {
      throw new SourceError('invalid_bucket_url', `bucket_url "${bucketUrl}" is not a valid file:// URL: ${(err as Error).message}`, { bucket_url: bucketUrl });
    }
  }
  throw new SourceError('not_implemented', `The filesystem source reads local directories and file:// URLs only; "${scheme}://" storage is not implemented yet.`, { scheme });
}

/**
 * `filesystem`: like local_files but for any local directory or file:// URL (manual YAML only,
 * hidden from the wizard). Cloud object stores come later.
 */
export default createFileSource({
  type: 'filesystem',
  title: 'Filesystem',
  wizard: false,
  configSchema,
  docs: 'Loads CSV/JSON/JSONL/Parquet files from a local directory or file:// URL (bucket_url, file_glob) into one raw table, incrementally by file.',
  directory: async (ctx) => localDirectory(ctx.projectDir, ctx.config.bucket_url),
  // remote schemes have no local directory to watch or upload into
  localDirectory: (c, projectDir) => {
    try {
      return c.bucket_url ? localDirectory(projectDir, c.bucket_url) : null;
    } catch {
      return null;
    }
  },
  insideProject: false,
  directoryKey: 'bucket_url',
  pattern: (c) => c.file_glob ?? '*',
});
