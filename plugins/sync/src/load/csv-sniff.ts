import { literal, type Conn } from '@basin/core';

/**
 * The dialect and columns DuckDB's sniffer finds in one CSV file, as read_csv options that skip the
 * sniff (`auto_detect=false`): the settings sniff_csv's `Prompt` gives, but the line end. A load
 * statement binds its reader twice (the `DESCRIBE` that creates, adds or widens staging columns, then
 * the `INSERT`), and each bind of an auto-detecting read_csv samples the file again: ~25-40 ms of one
 * thread each. With these options a bind takes ~2 ms, so the file is sniffed once (docs/performance.md,
 * issue 19).
 * `optSql`: the reader options the load passes (header, quote, delimiter...), which the sniff keeps.
 */
export async function sniffedCsvOptions(c: Conn, file: string, optSql: string): Promise<Record<string, unknown>> {
  const reader = await c.runAndReadAll(`SELECT Comment, Columns, DateFormat, TimestampFormat FROM sniff_csv(${literal(file)}${optSql ? `, ${optSql}` : ''})`);
  const s = reader.getRowObjectsJson()[0] ?? {};
  const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
  const columns: Array<[string, string]> = [];
  for (const col of Array.isArray(s.Columns) ? s.Columns : []) {
    if (col && typeof col === 'object' && !Array.isArray(col) && typeof col.name === 'string' && typeof col.type === 'string') columns.push([col.name, col.type]);
  }
  // a report without columns (not seen): the read auto-detects, as without the sniff
  if (!columns.length) return {};
  const comment = text(s.Comment);
  const dateFormat = text(s.DateFormat);
  const timestampFormat = text(s.TimestampFormat);
  // no line end: read_csv without one splits at \n, \r\n and \r alike, and given the sniffed value
  // as the Prompt writes it ('\r\n', escaped), DuckDB 1.5.6 read no rows at all
  return {
    auto_detect: false,
    // a detected comment character: its lines are skipped, not read as rows
    comment: comment && comment !== '(empty)' ? comment : '',
    columns: Object.fromEntries(columns),
    ...(dateFormat ? { dateformat: dateFormat } : {}),
    ...(timestampFormat ? { timestampformat: timestampFormat } : {}),
  };
}
