import fs from 'node:fs';
import path from 'node:path';
import { createApp, type BasinApp, type BootOptions } from '@basin/core';
import { scaffoldProject, type ScaffoldOptions } from '@basin/plugin-cli';
import { tempTestDir } from '@basin/sdk/testkit';

/** Shared test helpers: temporary projects and booted apps against real files. */

/** a fresh temp dir, removed when the test process exits (BASIN_KEEP_TMP=1 keeps it) */
export function tempDir(prefix = 'basin-test-'): string {
  return tempTestDir(prefix);
}

/** A fresh project made by `basin init`'s scaffold; `files` overwrite or add project files. */
export function makeProject(files: Record<string, string> = {}, opts: ScaffoldOptions = {}): string {
  const dir = path.join(tempDir(), 'project');
  scaffoldProject(dir, { name: 'test_project', createdBy: 'tests@example.com', ...opts });
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

/** Boots an app for a project (all workspace plugins unless `plugins` is given); close it in `after`. */
export async function bootApp(projectDir: string, opts: Partial<BootOptions> = {}): Promise<BasinApp> {
  return createApp({ projectDir, logger: false, ...opts });
}

/** Sets `auth.enabled: false` (loopback-only mode) in a project, for tests of other features. */
export function disableAuth(projectDir: string): void {
  const f = path.join(projectDir, '.basin', 'project.yml');
  fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(/auth:\n  enabled: true/, 'auth:\n  enabled: false'));
}

export function rmrf(p: string): void {
  fs.rmSync(p, { recursive: true, force: true });
}
export { runCliCaptured, type CapturedCli } from './cli.js';
export { fakeCompanionVenv } from './fake-venv.js';
