/** Pure schema comparison (SPEC "Schema drift event"): what changed between a baseline and the current columns. */
export interface ColumnSchema {
  name: string;
  type: string;
}

export interface DriftChange {
  change_type: 'column_added' | 'column_removed' | 'type_changed';
  column: string;
  old_type: string | null;
  new_type: string | null;
}

export function diffSchemas(baseline: ColumnSchema[], current: ColumnSchema[]): DriftChange[] {
  const before = new Map(baseline.map((c) => [c.name, c.type]));
  const after = new Map(current.map((c) => [c.name, c.type]));
  const changes: DriftChange[] = [];
  for (const [name, type] of before) {
    const now = after.get(name);
    if (now === undefined) changes.push({ change_type: 'column_removed', column: name, old_type: type, new_type: null });
    else if (now !== type) changes.push({ change_type: 'type_changed', column: name, old_type: type, new_type: now });
  }
  for (const [name, type] of after) if (!before.has(name)) changes.push({ change_type: 'column_added', column: name, old_type: null, new_type: type });
  return changes;
}

export const isBreaking = (c: DriftChange): boolean => c.change_type !== 'column_added';
