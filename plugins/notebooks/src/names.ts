import { errors } from '@basin/core';
import { notebookErrors } from './errors.js';

/** A notebook name is a file stem: letters, digits, `_` and `-`; never a path. */
export const NOTEBOOK_NAME = '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$';
const re = new RegExp(NOTEBOOK_NAME);

export function checkName(name: string, field = 'name'): string {
  if (!re.test(name)) {
    throw notebookErrors.invalid_notebook_name({ name }, { details: { field } });
  }
  return name;
}
