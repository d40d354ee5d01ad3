import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../fsutil.js';
import { yaml } from '../lazy-deps.js';

/**
 * The plain values of YAML texts, kept by a hash of each text (issue 19). A process's first YAML parse
 * runs cold code: the demo's ~5 KB of config cost ~25 ms of every `basin start`, and loading the parser
 * ~9 ms more; project.yml was parsed four times. A text that parsed once, in this process or an earlier
 * one, is answered from memory or from ~/.cache/basin/yaml-values/, without the parser.
 *
 * What is kept is exactly what yaml gave: only a text that parsed without errors, to a value JSON
 * carries unchanged (no Infinity, NaN or -0, no `__proto__` key), and each answer is a fresh copy. A
 * file marked sensitive is never passed here: its values would otherwise sit in a second place.
 * BASIN_YAML_CACHE=0 turns the cache off.
 */

/** entries kept in memory and on disk (the oldest go first): a project has ~10 YAML files */
const MAX_ENTRIES = 256;

interface Store {
  /** hash of a text -> its value as JSON, in the order of last use */
  entries: Map<string, string>;
  /** hashes this process added or used, written back at its next flush */
  touched: Set<string>;
  file: string | null;
}

let store: Store | null = null;
let flushScheduled = false;

const enabled = () => process.env.BASIN_YAML_CACHE !== '0';

/**
 * The value of a YAML text as yaml's `parse` gives it (YAML 1.2, core schema; an empty text is null),
 * kept for the next time. Throws yaml's first error for a text with errors, as `parse` does.
 */
export function yamlValue(text: string): unknown {
  const kept = keptYamlValue(text);
  if (kept) return kept.value;
  const doc = yaml().parseDocument(text);
  if (doc.errors.length) throw doc.errors[0];
  const value = doc.toJS();
  keepYamlValue(text, value);
  return value;
}

/**
 * yaml's `parse`, the parser loaded on first use and nothing kept: for texts that come and go (a value
 * typed into a form) and must not be written anywhere. An ES module's `import { parse } from 'yaml'`
 * loads the parser as soon as the module is evaluated.
 */
export function parseYaml(text: string): unknown {
  return yaml().parse(text);
}

/** The kept value of `text` (a fresh copy), if this text parsed before. */
export function keptYamlValue(text: string): { value: unknown } | undefined {
  if (!enabled()) return undefined;
  const s = openStore();
  const key = hashOf(text);
  const json = s.entries.get(key);
  if (json === undefined) return undefined;
  s.touched.add(key);
  return { value: JSON.parse(json) };
}

/** Keeps the value yaml gave for `text` (error-free), unless JSON would not carry it unchanged. */
export function keepYamlValue(text: string, value: unknown): void {
  if (!enabled() || !jsonSafe(value)) return;
  const s = openStore();
  const key = hashOf(text);
  if (s.entries.has(key)) return;
  s.entries.set(key, JSON.stringify(value));
  s.touched.add(key);
  trim(s.entries);
  scheduleFlush();
}

/** Writes what this process added or used to the cache file now (tests; otherwise on a timer and at exit). */
export function flushYamlValues(): void {
  const s = store;
  if (!s?.file || !s.touched.size) return;
  const onDisk = readEntries(s.file);
  for (const key of s.touched) {
    const json = s.entries.get(key);
    if (json === undefined) continue;
    // moved to the end: last used
    onDisk.delete(key);
    onDisk.set(key, json);
  }
  s.touched.clear();
  trim(onDisk);
  try {
    fs.mkdirSync(path.dirname(s.file), { recursive: true, mode: 0o700 });
    writeFileAtomic(s.file, JSON.stringify(Object.fromEntries(onDisk)), 0o600);
  } catch {
    // a home without a writable cache folder: the next process parses again
  }
}

/** Forgets the in-memory entries (tests: the next lookup reads the file again). */
export function resetYamlValues(): void {
  store = null;
}

function openStore(): Store {
  if (store) return store;
  const file = cacheFile();
  store = { entries: file ? readEntries(file) : new Map(), touched: new Set(), file };
  return store;
}

function readEntries(file: string): Map<string, string> {
  try {
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return new Map();
    return new Map(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return new Map(); // none yet, or unreadable: parse again
  }
}

/** ~/.cache/basin/yaml-values/<yaml's version>.json: another parser version may give other values */
function cacheFile(): string | null {
  const home = process.env.HOME || process.env.USERPROFILE || os.homedir();
  if (!home) return null;
  try {
    const { version } = createRequire(import.meta.url)('yaml/package.json') as { version: string };
    return path.join(home, '.cache', 'basin', 'yaml-values', `yaml-${version}.json`);
  } catch {
    return null; // no version to tell parsers apart: keep nothing on disk
  }
}

function scheduleFlush(): void {
  if (flushScheduled) return;
  flushScheduled = true;
  const flush = () => {
    flushScheduled = false;
    process.removeListener('exit', flush);
    flushYamlValues();
  };
  // soon after start-up (a server keeps running), or when the process exits before that
  setTimeout(flush, 2000).unref();
  process.once('exit', flush);
}

function hashOf(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex').slice(0, 32);
}

function trim(entries: Map<string, string>): void {
  for (const key of entries.keys()) {
    if (entries.size <= MAX_ENTRIES) break;
    entries.delete(key);
  }
}

/** true when JSON.parse(JSON.stringify(v)) is a value equal to v */
function jsonSafe(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!(i in v) || !jsonSafe(v[i])) return false;
    return true;
  }
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return false;
    for (const key of Object.keys(v as object)) if (key === '__proto__' || !jsonSafe((v as Record<string, unknown>)[key])) return false;
    // symbol keys or non-enumerable ones would be dropped
    return Object.getOwnPropertyNames(v).length === Object.keys(v as object).length && Object.getOwnPropertySymbols(v).length === 0;
  }
  return false;
}
