import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..', '..');
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** where page screenshots are kept (gitignored; CI can upload the folder as an artifact) */
export const ARTIFACTS = path.join(root, 'test', 'artifacts', 'ui');

/** the UI's vendor bundles are made by the build; a test run from sources makes them once */
export function ensureUiBuilt(): void {
  if (!fs.existsSync(path.join(root, 'ui', 'dist', 'vendor', 'editor.js'))) execFileSync(process.execPath, [path.join(root, 'ui', 'scripts', 'build-vendor.mjs')], { stdio: 'inherit', cwd: path.join(root, 'ui') });
}

export interface AxeFinding {
  page: string;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** runs axe-core on the page as it is now; returns its serious and critical violations */
export async function axeCheck(page: Page, name: string): Promise<AxeFinding[]> {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> }> } }).axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ page: name, ...v }));
}

/** a full-page screenshot kept under test/artifacts/ui/<name>.png */
export async function keepScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
