// Resident memory of a process and all its descendants, from /proc (Linux).
import fs from 'node:fs';

function children(pid: number): number[] {
  const out: number[] = [];
  for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      out.push(...fs.readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      /* the task ended */
    }
  }
  return out;
}

/** RSS in MB of `pid` and its process tree. */
export function treeRssMb(pid: number): number {
  let kb = 0;
  const todo = [pid];
  while (todo.length) {
    const p = todo.pop()!;
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
      todo.push(...children(p));
    } catch {
      /* gone */
    }
  }
  return kb / 1024;
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
