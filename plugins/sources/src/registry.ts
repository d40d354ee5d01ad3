import { discoverWorkspacePackages, importPackage, resolveProjectPackages, type DiscoveredPackage } from '@basin/core';
import type { SourceDefinition } from '@basin/sdk';

/** Every source type available to this install: workspace `sources/*` packages plus project-listed ones. */
export class SourceRegistry {
  private readonly defs = new Map<string, SourceDefinition & { package: string }>();

  add(def: SourceDefinition, pkg: string): void {
    if (this.defs.has(def.type)) throw new Error(`Source type "${def.type}" is provided by both ${this.defs.get(def.type)!.package} and ${pkg}.`);
    this.defs.set(def.type, { ...def, package: pkg });
  }

  get(type: string): (SourceDefinition & { package: string }) | undefined {
    return this.defs.get(type);
  }

  types(): string[] {
    return [...this.defs.keys()].sort();
  }

  all(): Array<SourceDefinition & { package: string }> {
    return [...this.defs.values()].sort((a, b) => a.type.localeCompare(b.type));
  }
}

let cached: SourceRegistry | null = null;

async function loadInto(reg: SourceRegistry, pkgs: DiscoveredPackage[]): Promise<void> {
  const defs = await Promise.all(pkgs.map(async (p) => ({ p, def: await importPackage<SourceDefinition>(p) })));
  for (const { p, def } of defs) {
    if (!def || typeof def !== 'object' || !('type' in def)) throw new Error(`Source package ${p.name} must default-export defineSource({...}).`);
    if (!reg.get(def.type)) reg.add(def, p.name);
  }
}

/** Loads (once per process) the workspace's source packages. */
export async function loadSourceRegistry(): Promise<SourceRegistry> {
  if (cached) return cached;
  const reg = new SourceRegistry();
  await loadInto(reg, discoverWorkspacePackages().filter((p) => p.kind === 'source'));
  cached = reg;
  return reg;
}

/** Adds source packages a project lists in project.yml `plugins:`. */
export async function addProjectSources(reg: SourceRegistry, projectDir: string, names: string[]): Promise<void> {
  await loadInto(reg, resolveProjectPackages(projectDir, names).filter((p) => p.kind === 'source'));
}
