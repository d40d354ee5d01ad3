import fs from 'node:fs';
import path from 'node:path';
import { definePlugin, projectPluginNames, yamlValue } from '@basin/core';
import { registerSourceCommands } from './cli/commands.js';
import { ingestConfigFileSpec, secretsFileSpec, sourcesFileSpec } from './config.js';
import { sourceRegistryRef, sourcesConfigRef, sourceStatusPoint, type SourceStatusContribution, sourcePermissions } from './contract.js';
import { addProjectSources, loadSourceRegistry, workspaceSourceRegistry } from './registry.js';
import { registerSourceRoutes } from './routes/sources.js';
import { SourcesConfig } from './source-config.js';

export * from './config.js';
export * from './registry.js';
export { SourcesConfig, maskConfig, rawSchema } from './source-config.js';

// Source packages are known before config validation, since each one owns its block's schema; the ones
// sources.yml names are imported in `prepare`, the others on first use (registry.ts). Where packages
// cannot load on first use (tests, BASIN_DEV), `prepare` imports them all first. (No top-level await
// here: the plugin is then CommonJS-compatible, and `runtime/` prebuilds it with the others.)
const registry = workspaceSourceRegistry();

/** the source types sources.yml names, read ahead of its validation (which reports a broken file) */
function configuredTypes(projectDir: string): string[] {
  try {
    const raw = yamlValue(fs.readFileSync(path.join(projectDir, sourcesFileSpec(registry).path), 'utf8')) as { sources?: unknown } | null;
    const list: unknown[] = Array.isArray(raw?.sources) ? raw.sources : [];
    return list.flatMap((s) => (s && typeof s === 'object' && typeof (s as { type?: unknown }).type === 'string' ? [(s as { type: string }).type] : []));
  } catch {
    return [];
  }
}

export default definePlugin({
  name: 'sources',
  permissions: Object.values(sourcePermissions),
  configFiles: [sourcesFileSpec(registry), secretsFileSpec, ingestConfigFileSpec],
  commands: registerSourceCommands,
  // source packages a project lists under `plugins:` must be known before sources.yml is validated, and
  // the configured types are imported ahead (together, asynchronously)
  async prepare(projectDir) {
    await loadSourceRegistry();
    await registry.load(configuredTypes(projectDir));
    const names = projectPluginNames(projectDir);
    if (names.length) await addProjectSources(registry, projectDir, names);
  },
  register(ctx) {
    ctx.provide(sourceRegistryRef, registry);
    const sources = new SourcesConfig(ctx.config, registry, sourcesFileSpec(registry), ctx.log);
    ctx.provide(sourcesConfigRef, sources);
    const contributions: SourceStatusContribution[] = [];
    ctx.provideExtensionPoint(sourceStatusPoint, { contribute: (c) => void contributions.push(c), contributions: () => contributions });
    registerSourceRoutes(ctx, { registry, sources });
    // an edit of sources.yml that does not validate: the running list is kept, and health says why
    ctx.health(() => ({ sources_config_error: sources.error() }));
  },
});
