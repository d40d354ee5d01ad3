import type { Options } from 'tsup';
/** tsup options for the package in `dir` (default: the current directory): see tsup-vendor.mjs */
export function vendored(dir?: string): Pick<Options, 'noExternal' | 'esbuildOptions'>;
