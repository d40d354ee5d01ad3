import type { ReadItem, ResourceSpec, SourceContext, SourceDefinition } from '../types.js';

export interface ReadResult {
  items: ReadItem[];
  /** all records per resource, in order */
  records: Record<string, Record<string, unknown>[]>;
  /** file items per resource */
  files: Record<string, Extract<ReadItem, { kind: 'file' }>[]>;
  /** source files to forget per resource */
  forgotten: Record<string, string[]>;
  /** the last state per resource (what the engine would commit) */
  state: Record<string, Record<string, unknown>>;
  /** records + file items */
  dataItems: number;
}

/** Runs `read` to the end and gathers what it yielded, the way the engine sees it. */
export async function collectRead(
  source: SourceDefinition,
  ctx: SourceContext<any>,
  resources: ResourceSpec[],
  state: Record<string, Record<string, unknown>> = {},
): Promise<ReadResult> {
  const out: ReadResult = { items: [], records: {}, files: {}, forgotten: {}, state: {}, dataItems: 0 };
  for await (const item of source.read(ctx, resources, state)) {
    out.items.push(item);
    if (item.kind === 'records') {
      const rows = (out.records[item.resource] ??= []);
      for (const r of item.records) rows.push(r);
      out.dataItems++;
    } else if (item.kind === 'file') {
      (out.files[item.resource] ??= []).push(item);
      out.dataItems++;
    } else if (item.kind === 'forget_files') (out.forgotten[item.resource] ??= []).push(...item.sourceFiles);
    else if (item.kind === 'state') out.state[item.resource] = item.state;
  }
  return out;
}
