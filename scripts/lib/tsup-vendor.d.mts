import type { Options } from 'tsup';
/** tsup options for the package in `dir` (default: the current directory), `bundle`: its own CommonJS dependencies to bundle; see tsup-vendor.mjs */
export function vendored(options?: { dir?: string; bundle?: string[] }): Pick<Options, 'noExternal' | 'esbuildOptions' | 'banner'>;
