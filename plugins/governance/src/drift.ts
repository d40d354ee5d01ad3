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

/** changes in the current column order (added or retyped), then the removed columns in baseline order */
export function diffSchemas(baseline: ColumnSchema[], current: ColumnSchema[]): DriftChange[] {
  const before = new Map(baseline.map((c) => [c.name, c.type]));
  const after = new Set(current.map((c) => c.name));
  const changes: DriftChange[] = [];
  for (const { name, type } of current) {
    const was = before.get(name);
    if (was === undefined) changes.push({ change_type: 'column_added', column: name, old_type: null, new_type: type });
    else if (was !== type) changes.push({ change_type: 'type_changed', column: name, old_type: was, new_type: type });
  }
  for (const [name, type] of before) if (!after.has(name)) changes.push({ change_type: 'column_removed', column: name, old_type: type, new_type: null });
  return changes;
}

export const isBreaking = (c: DriftChange): boolean => c.change_type !== 'column_added';
