import { defineErrors } from '@basin/core';

/** The notebooks plugin's error codes; its routes list the ones they answer with. */
export const notebookErrors = defineErrors('notebooks', {
  invalid_notebook_name: { status: 400, message: (a: { name: string }) => `Notebook name "${a.name.slice(0, 80)}" is not allowed: use 1-64 letters, digits, "_" or "-", starting with a letter or digit (no paths).` },
  invalid_template: { status: 400, message: (a: { template: string; templates: readonly string[] }) => `Unknown template "${a.template.slice(0, 40)}"; use one of ${a.templates.join(', ')}.` },
  notebook_exists: { status: 409, message: (a: { name: string }) => `A notebook named "${a.name}" already exists; pick another name.` },
  notebook_locked: { status: 409, message: (a: { name: string; holder: string; until: string }) => `Notebook "${a.name}" is being edited by ${a.holder} until ${a.until} (unless they keep it open); ask them to release it, or an editor can force-release it.` },
  notebook_not_locked: { status: 409, message: (a: { name: string }) => `You do not hold the lock on "${a.name}" (it expired or was released); lock it again.` },
  notebook_open_needs_lock: { code: 'notebook_not_locked', status: 409, message: (a: { name: string }) => `Lock notebook "${a.name}" first (POST /api/notebooks/${a.name}/lock); only the user holding its lock can open it.` },
  notebook_server_down: { status: 503, message: (a: { name: string }) => `The server of notebook "${a.name}" is not running; lock it again to restart it.` },
  notebook_invalid: { status: 422, message: (a: { name: string; marimo: string }) => `Notebook "${a.name}" does not parse; marimo says:\n${a.marimo.slice(0, 2000)}` },
  notebook_servers_busy: { status: 503, message: (a: { max: number }) => `${a.max} notebooks are open, the most this server runs at once (notebooks.max_servers); release one and retry.` },
  notebook_port_unavailable: { status: 503, message: (a: { base: number }) => `No free port from platform.notebook_port (${a.base}) upward; free one or change the setting.` },
  notebook_server_failed: { status: 503, message: (a: { name: string; reason: string; output: string }) => `The notebook server for "${a.name}" did not start (${a.reason}). Last output:\n${a.output}` },
});
