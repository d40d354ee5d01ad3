// dbt's structured log (`--log-format json`): one JSON object per line, `info` (name, level, msg)
// and `data` (node_info for per-node events). Only the parts Basin uses are typed.

export interface DbtLogLine {
  name: string;
  level: string;
  msg: string;
  node?: { uniqueId: string; name: string; resourceType: string; status: string };
  /** NodeFinished carries the node's result, including the error message */
  result?: { status: string; message: string | null; executionTime: number | null };
}

/** Parses one stdout line; null for anything that is not a dbt JSON log event (e.g. a Python traceback). */
export function parseDbtLogLine(line: string): DbtLogLine | null {
  const s = line.trim();
  if (!s.startsWith('{')) return null;
  let d: any;
  try {
    d = JSON.parse(s);
  } catch {
    return null;
  }
  if (!d || typeof d.info?.name !== 'string') return null;
  const out: DbtLogLine = { name: d.info.name, level: String(d.info.level ?? 'info'), msg: String(d.info.msg ?? '') };
  const ni = d.data?.node_info;
  if (ni && typeof ni.unique_id === 'string') {
    out.node = { uniqueId: ni.unique_id, name: String(ni.node_name ?? ni.unique_id.split('.').pop()), resourceType: String(ni.resource_type ?? ''), status: String(ni.node_status ?? '') };
  }
  const rr = d.data?.run_result;
  if (rr && typeof rr.status === 'string') {
    out.result = { status: rr.status, message: typeof rr.message === 'string' ? rr.message : null, executionTime: typeof rr.execution_time === 'number' ? rr.execution_time : null };
  }
  return out;
}

/** Progress lines a person wants to see (dbt's info-level console output), without the debug chatter. */
export const isProgressLine = (l: DbtLogLine): boolean => l.level !== 'debug' && l.name !== 'Formatting' && l.msg.trim() !== '';

/** dbt statuses that mean a node failed. */
export const FAILED_STATUSES = new Set(['error', 'fail', 'runtime error']);
