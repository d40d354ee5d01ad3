// Bundles the UI's kept libraries (uPlot, dagre, a QR code generator, CodeMirror) into ES modules under
// dist/vendor at BUILD time; the server only serves these files (no run-time build).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const ui = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(ui, 'dist', 'vendor');
const require = createRequire(import.meta.url);
fs.mkdirSync(out, { recursive: true });
await build({
  entryPoints: ['charts', 'graph', 'qr', 'editor'].map((n) => path.join(ui, 'vendor-src', `${n}.js`)),
  outdir: out,
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2020',
  logLevel: 'warning',
});
fs.copyFileSync(path.join(path.dirname(require.resolve('uplot')), 'uPlot.min.css'), path.join(out, 'uplot.css'));
console.log(`[ui] vendor bundles written to ${path.relative(process.cwd(), out)}`);
