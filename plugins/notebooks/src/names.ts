import { errors } from '@basin/core';

/** A notebook name is a file stem: letters, digits, `_` and `-`; never a path. */
export const NOTEBOOK_NAME = '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$';
const re = new RegExp(NOTEBOOK_NAME);

export function checkName(name: string, field = 'name'): string {
  if (!re.test(name)) {
    throw errors.badRequest(`Notebook name "${name.slice(0, 80)}" is not allowed: use 1-64 letters, digits, "_" or "-", starting with a letter or digit (no paths).`, { field }, 'invalid_notebook_name');
  }
  return name;
}
