// `basin doctor`'s source checks: each enabled source's own `check` (credentials, reachability), run
// with the same context a sync gets, so a missing env var or a refused token shows with its fix.
import type { DoctorCheck, DoctorContext } from '@basin/core';
import { configuredSources, loadSourceRegistry, sourceBlock } from '@basin/plugin-sources/contract';
import { SourceError, type SourceLogger } from '@basin/sdk';
import { buildSourceContext, redact } from '../context.js';

const CHECK_TIMEOUT_MS = 20_000;
const quiet: SourceLogger = { info() {}, warn() {}, error() {} };

function fixFor(e: unknown, source: string, message = ''): string {
  // sources report a missing variable by throwing it, or in their check's message
  const v = e instanceof SourceError && e.code === 'missing_secret' ? (e.details as { variable?: string } | undefined)?.variable : /Environment variable "([^"]+)" is not set/.exec(message)?.[1];
  if (v) return `Add ${v}=<value> to the project's .env (or the server's environment), then rerun "basin doctor".`;
  return `Check the settings and credentials of "${source}" in .basin/sources.yml and .env (the message above says what the source saw).`;
}

export async function sourceDoctorChecks(d: DoctorContext): Promise<DoctorCheck[]> {
  if (!d.config) return [];
  const registry = await loadSourceRegistry();
  const checks: DoctorCheck[] = [];
  for (const entry of configuredSources(d.config)) {
    const name = `source ${entry.name} (${entry.type})`;
    if (entry.enabled === false) {
      checks.push({ area: 'sources', name, status: 'ok', detail: 'disabled; not checked' });
      continue;
    }
    const def = registry.get(entry.type);
    if (!def) {
      checks.push({ area: 'sources', name, status: 'fail', detail: `source type "${entry.type}" is not installed`, fix: `Install the package that provides "${entry.type}" or list it under plugins: in .basin/project.yml.` });
      continue;
    }
    if (def.implemented === false) {
      checks.push({ area: 'sources', name, status: 'warn', detail: `the "${entry.type}" source type has no runtime yet; its syncs fail`, fix: `Disable "${entry.name}" (enabled: false) or use another source type.` });
      continue;
    }
    const secrets = new Set<string>();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), CHECK_TIMEOUT_MS);
    try {
      const ctx = buildSourceContext({ config: d.config, entry, block: sourceBlock(entry, registry), fullRefresh: false, signal: controller.signal, log: quiet, secrets });
      const r = await def.check(ctx);
      checks.push(r.ok ? { area: 'sources', name, status: 'ok', detail: r.message ? redact(r.message, secrets) : 'check passed' } : { area: 'sources', name, status: 'fail', detail: redact(r.message ?? 'check failed', secrets), fix: fixFor(null, entry.name, r.message) });
    } catch (e) {
      const msg = controller.signal.aborted ? `no answer within ${CHECK_TIMEOUT_MS / 1000}s` : redact((e as Error).message, secrets);
      checks.push({ area: 'sources', name, status: 'fail', detail: msg, fix: fixFor(e, entry.name) });
    } finally {
      clearTimeout(timer);
    }
  }
  return checks;
}
