import { createRequire } from 'node:module';
import { canRequireEsModules, discoverWorkspacePackages, importPackage, packageEntry, resolveProjectPackages, runsTypeScriptSources, type DiscoveredPackage } from '@basin/core';
import type { SourceDefinition } from '@basin/sdk';

const require = createRequire(import.meta.url);

/**
 * Whether this process can load a source package synchronously when it is first asked for: Node's
 * require() of an ES module (20.19+), on built packages (.js). Under a TypeScript loader or the
 * `development` condition (tests, dev) require() would compile a second CommonJS copy of the SDK, so
 * there every package loads at start.
 */
function loadsOnFirstUse(pkgs: DiscoveredPackage[]): boolean {
  if (!canRequireEsModules() || runsTypeScriptSources()) return false;
  return pkgs.every((p) => typeof p.meta.type === 'string');
}

function checked(def: unknown, p: DiscoveredPackage): SourceDefinition {
  if (!def || typeof def !== 'object' || !('type' in def)) throw new Error(`Source package ${p.name} must default-export defineSource({...}).`);
  return def as SourceDefinition;
}

/**
 * Every source type available to this install: workspace `sources/*` packages plus project-listed ones.
 * A workspace package is known by its manifest (`"basin": {"kind": "source", "type": …}`) and imported
 * when its type is first asked for (`get`, `all`) or loaded ahead with `load` (the configured types, at
 * start): a server whose project uses two source types loads two of the 35 packages.
 */
export class SourceRegistry {
  private readonly defs = new Map<string, SourceDefinition & { package: string }>();
  /** declared by their manifest, not imported yet */
  private readonly declared = new Map<string, DiscoveredPackage>();

  add(def: SourceDefinition, pkg: string): void {
    if (this.defs.has(def.type)) throw new Error(`Source type "${def.type}" is provided by both ${this.defs.get(def.type)!.package} and ${pkg}.`);
    this.defs.set(def.type, { ...def, package: pkg });
    this.declared.delete(def.type);
  }

  /** A package known by its manifest's type, imported on first use; the first package of a type wins, as with `add`. */
  declare(p: DiscoveredPackage): void {
    const type = p.meta.type as string;
    if (!this.defs.has(type) && !this.declared.has(type)) this.declared.set(type, p);
  }

  get(type: string): (SourceDefinition & { package: string }) | undefined {
    const def = this.defs.get(type);
    if (def) return def;
    const p = this.declared.get(type);
    if (!p) return undefined;
    // synchronous callers (sources.yml validation after an edit names a new type): require() of the built ES module
    const mod = require(packageEntry(p.dir)) as { default?: unknown };
    this.settle(checked(mod.default ?? mod, p), p);
    return this.defs.get(type);
  }

  types(): string[] {
    return [...new Set([...this.defs.keys(), ...this.declared.keys()])].sort();
  }

  /** the types whose package is imported so far */
  loadedTypes(): string[] {
    return [...this.defs.keys()].sort();
  }

  all(): Array<SourceDefinition & { package: string }> {
    for (const type of [...this.declared.keys()]) this.get(type);
    return [...this.defs.values()].sort((a, b) => a.type.localeCompare(b.type));
  }

  /** Imports the packages of these types ahead of their first use (unknown types are left to validation). */
  async load(types: Iterable<string>): Promise<void> {
    const wanted = [...new Set(types)].flatMap((t) => {
      const p = this.declared.get(t);
      return p ? [p] : [];
    });
    const defs = await Promise.all(wanted.map(async (p) => ({ p, def: checked(await importPackage(p), p) })));
    for (const { p, def } of defs) this.settle(def, p);
  }

  private settle(def: SourceDefinition, p: DiscoveredPackage): void {
    if (def.type !== p.meta.type) throw new Error(`Source package ${p.name} declares type "${String(p.meta.type)}" in package.json but defines "${def.type}".`);
    if (!this.defs.has(def.type)) this.add(def, p.name);
  }
}

let cached: SourceRegistry | null = null;
/** the packages of `cached` still to import (where they cannot load on first use), and that import */
let unloaded: DiscoveredPackage[] = [];
let loading: Promise<void> | null = null;

async function loadInto(reg: SourceRegistry, pkgs: DiscoveredPackage[]): Promise<void> {
  const defs = await Promise.all(pkgs.map(async (p) => ({ p, def: checked(await importPackage(p), p) })));
  for (const { p, def } of defs) {
    if (!reg.get(def.type)) reg.add(def, p.name);
  }
}

/**
 * The workspace's source registry (one per process), at once: its packages declared, to be imported on
 * first use. Where they cannot load on first use it is empty until `loadSourceRegistry()` has imported
 * them (the plugin's `prepare` awaits that before the config is validated).
 */
export function workspaceSourceRegistry(): SourceRegistry {
  if (cached) return cached;
  const reg = new SourceRegistry();
  const pkgs = discoverWorkspacePackages().filter((p) => p.kind === 'source');
  if (loadsOnFirstUse(pkgs)) for (const p of pkgs) reg.declare(p);
  else unloaded = pkgs;
  cached = reg;
  return reg;
}

/** The workspace's source packages (once per process): declared, or imported where they cannot load on first use. */
export async function loadSourceRegistry(): Promise<SourceRegistry> {
  const reg = workspaceSourceRegistry();
  await (loading ??= loadInto(reg, unloaded.splice(0)));
  return reg;
}

/** Adds source packages a project lists in project.yml `plugins:`. */
export async function addProjectSources(reg: SourceRegistry, projectDir: string, names: string[]): Promise<void> {
  await loadInto(reg, resolveProjectPackages(projectDir, names).filter((p) => p.kind === 'source'));
}
