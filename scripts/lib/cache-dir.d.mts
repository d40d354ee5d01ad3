/** `$BASIN_CACHE_DIR`, else ~/.cache/basin */
export function cacheDir(env?: NodeJS.ProcessEnv): string;
