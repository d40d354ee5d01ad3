// Debian's Chromium for the browser tests (playwright-core drives it; no browser download).
import { ensureApt } from '../lib/apt.mjs';

export default async function setupChromium() {
  if (process.env.BASIN_SKIP_BROWSER === '1') return;
  ensureApt(['chromium']);
}
