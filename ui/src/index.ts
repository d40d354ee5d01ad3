import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
/** a package's root folder (its package.json is always resolvable, unlike unexported dist files) */
function pkgDir(name: string): string {
  let dir = path.dirname(require.resolve(name));
  while (!fs.existsSync(path.join(dir, 'package.json')) || JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name !== name) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`cannot find the folder of package ${name}`);
    dir = up;
  }
  return dir;
}

/** Where the build puts the bundled kept libraries (scripts/build-vendor.mjs; `npm run build -w @basin/ui`). */
export const vendorBuildDir = path.resolve(here, '..', 'dist', 'vendor');

/** Where the UI's static files live, and the vendor modules the import map points at (no CDN). */
export function uiAssets(): { publicDir: string; vendor: Record<string, string> } {
  const bundled = Object.fromEntries(['charts.js', 'graph.js', 'qr.js', 'editor.js', 'uplot.css'].map((f) => [f, path.join(vendorBuildDir, f)]));
  return {
    publicDir: path.resolve(here, '..', 'public'),
    vendor: {
      ...bundled,
      'preact.module.js': path.join(pkgDir('preact'), 'dist', 'preact.module.js'),
      'hooks.module.js': path.join(pkgDir('preact'), 'hooks', 'dist', 'hooks.module.js'),
      'htm.module.js': path.join(pkgDir('htm'), 'dist', 'htm.module.js'),
    },
  };
}

/**
 * The shell's own HTML route. Every feature page (SPEC "HTML page routes") is contributed by the plugin
 * that owns it through `ctx.page`; the web plugin serves the shell for each.
 */
export const PAGE_ROUTES = ['/'] as const;
