// Loads a bundled CommonJS file (core's and the SDK's dist/vendor/*.cjs, the prebuilt plugins) with a
// V8 code cache. It lives in the SDK, which depends on nothing of core's, so that the SDK's TypeBox
// bundle loads through it too (core/vendor/load-bundle.cjs is this file). Compiling the
// 0.9 MB fastify bundle cost ~48 ms CPU at every start, with the cache ~18 ms (Node 20 has no
// module.enableCompileCache). The cache is made after start-up has run, so it also holds the functions
// V8 compiled lazily, and is written next to the bundle (the trust of the code itself), else under
// ~/.cache/basin; never in the shared temp dir, since a cache is code. The file name carries a hash
// of the bundle's text: V8 itself checks only the source's length, so an edited bundle of the same
// length would otherwise run the old code. V8 refuses a cache made under other flags (and another V8
// version) and it is then made again, so the name also carries the process's Node flags: `basin` (no
// flags), the test runner and a profiling run each keep their own instead of replacing one another's
// at every switch (a rejected cache cost ~100 ms of a start).
// BASIN_CODE_CACHE=0 turns it off.
// A bundle loaded here must not call import(): V8 gives a script compiled through node:vm no loader
// for it once its code comes from a cache (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), and Node 20's
// vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER fixes neither that nor its experimental warning. The
// bundles turn import() into require() (runtime/src/build.mjs); awilix's one is in loadModules, unused.
// The file is read as bytes: hashed as they are, and an ASCII file (runtime/'s bundle, the minified
// vendor bundles) becomes a one-byte string without decoding UTF-8 (for 1.6 MB: 2 ms instead of 12).
'use strict';
const { isAscii } = require('node:buffer');
const fs = require('node:fs');
const crypto = require('node:crypto');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');

/** what happened to each bundle's cache in this process: 'used' | 'written' | 'rejected' | 'off' */
const status = new Map();

/** a tag for the Node and V8 flags of this process ('' without any) */
function flagsTag() {
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').trim();
  return flags ? `-f${crypto.createHash('sha256').update(flags).digest('hex').slice(0, 8)}` : '';
}

// <bundle>.<hash of its bytes>.<node version>-<arch>[-f<flags>].v8cache
function cacheFiles(file, bytes) {
  const hash = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const name = `${path.basename(file)}.${hash}.${process.version}-${process.arch}${flagsTag()}.v8cache`;
  return [path.join(path.dirname(file), name), path.join(os.homedir(), '.cache', 'basin', 'code-cache', name)];
}

/** removes the caches of earlier texts of this bundle (any flags) from the folder `kept` is written to */
function dropStale(file, kept) {
  const dir = path.dirname(kept);
  const base = `${path.basename(file)}.`;
  const textHash = path.basename(kept).slice(base.length).split('.')[0];
  for (const f of fs.readdirSync(dir)) {
    if (f.startsWith(base) && f.endsWith('.v8cache') && f.slice(base.length).split('.')[0] !== textHash) fs.rmSync(path.join(dir, f), { force: true });
  }
}

function readCache(files) {
  for (const f of files) {
    try {
      return fs.readFileSync(f);
    } catch {
      // not there: the next place
    }
  }
  return undefined;
}

function writeCache(file, files, data) {
  for (const f of files) {
    const tmp = `${f}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(tmp, data);
      fs.renameSync(tmp, f);
      dropStale(file, f);
      return true;
    } catch {
      fs.rmSync(tmp, { force: true });
    }
  }
  return false;
}

function loadBundle(file) {
  const cached = require.cache[file];
  if (cached) return cached.exports;
  if (process.env.BASIN_CODE_CACHE === '0') {
    status.set(file, 'off');
    return require(file);
  }
  const bytes = fs.readFileSync(file);
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const files = cacheFiles(file, bytes);
  const cachedData = readCache(files);
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const m = new Module(file, module);
  m.filename = file;
  m.paths = Module._nodeModulePaths(path.dirname(file));
  require.cache[file] = m;
  try {
    script.runInThisContext().call(m.exports, m.exports, Module.createRequire(file), m, file, path.dirname(file));
  } catch (e) {
    delete require.cache[file];
    throw e;
  }
  m.loaded = true;
  if (cachedData && !script.cachedDataRejected) {
    status.set(file, 'used');
  } else {
    status.set(file, cachedData ? 'rejected' : 'missing');
    // after start-up has compiled what it calls (a server: a few seconds; a CLI command: at its exit)
    let done = false;
    const save = () => {
      if (done) return;
      done = true;
      if (writeCache(file, files, script.createCachedData())) status.set(file, 'written');
    };
    setTimeout(save, 3000).unref();
    process.once('exit', save);
  }
  return m.exports;
}

module.exports = { loadBundle, codeCacheStatus: () => new Map(status) };
