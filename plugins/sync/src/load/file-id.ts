import crypto from 'node:crypto';

/**
 * The `_basin_file_id` of a source file: 53 bits of the MD5 of its source-file name (the name
 * `raw_<source>._basin_files` shows), so the same file always gets the same id, in every sync and on
 * every warehouse, with no counter to keep; exact as a JavaScript number. DuckDB computes the same
 * value (`fileIdSql`) from its file path column once per chunk. Rows carry the id instead of the
 * name: a per-row string cost DuckDB ~1.3 G instructions per million rows to store
 * (docs/decisions.md, "Issue 19: the file and sync columns").
 */
export function fileId(sourceFile: string): number {
  // DuckDB's md5_number_lower: bytes 8-15 of the digest, little-endian
  return Number(crypto.createHash('md5').update(sourceFile).digest().readBigUInt64LE(8) >> 11n);
}

/** DuckDB SQL giving `fileId` of the VARCHAR expression `name` */
export const fileIdSql = (name: string): string => `CAST(md5_number_lower(${name}) >> 11 AS BIGINT)`;

/** the table beside a source's tables naming the files their rows came from */
export { WAREHOUSE_FILES_TABLE as FILES_TABLE } from '@basin/core';
