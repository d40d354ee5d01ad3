// Where the setup keeps what is too big or too slow to make again for each clone (built addons,
// companion venvs): `$BASIN_CACHE_DIR`, else ~/.cache/basin. The Trino plugin finds its server there
// the same way (plugins/warehouse-trino/src/install.ts, cacheDir).
import os from 'node:os';
import path from 'node:path';

export function cacheDir(env = process.env) {
  return env.BASIN_CACHE_DIR ? path.resolve(env.BASIN_CACHE_DIR) : path.join(os.homedir(), '.cache', 'basin');
}
