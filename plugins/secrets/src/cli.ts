import path from 'node:path';
import { callServer, CliExit, EXIT, isBasinError, runningServer, type BasinApp, type CliContext } from '@basin/core';
import { secretsRef } from './contract.js';
import type { SecretActor, SecretsStore } from './store.js';

const CLI_ACTOR: SecretActor = { id: null, email: null, ip: null, via: 'cli' };

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(Buffer.from(c));
  // one trailing line break is the terminal's, not the value's
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** `basin secrets set|list|unset|rotate-key`: the project's .env from the host; values come from stdin, never argv. */
export function registerSecretCommands(cli: CliContext): void {
  const out = (s: string): void => void cli.stdout.write(`${s}\n`);
  const projectOpt = ['--project <dir>', 'project directory', process.cwd()] as const;
  const withStore = async <T>(project: string, fn: (s: SecretsStore) => T): Promise<T> => {
    let app: BasinApp | undefined;
    try {
      app = await cli.boot({ projectDir: path.resolve(project) });
      return fn(app.resolve(secretsRef));
    } catch (e) {
      if (isBasinError(e)) throw new CliExit(EXIT.failure, `basin secrets: ${e.message}`);
      throw e;
    } finally {
      await app?.close();
    }
  };

  // with a server running, the change goes through it (it holds the warehouse, and audits the key's user)
  const viaServer = async (project: string, method: string, p: string, body?: unknown) => {
    const server = runningServer(path.resolve(project));
    if (!server) return undefined;
    const r = await callServer(server, method, p, body);
    if (r.status === 401 || r.status === 403) throw new CliExit(EXIT.failure, `basin secrets: the running Basin server (pid ${server.pid}) refused the request; set BASIN_API_KEY to an admin API key (basin keys create).`);
    if (!r.ok) throw new CliExit(EXIT.failure, `basin secrets: ${r.body?.error?.message ?? `HTTP ${r.status}`}`);
    return r.body;
  };

  const secrets = cli.program.command('secrets').description("The project's environment variables (.env); values are never printed");
  secrets
    .command('set')
    .argument('<key>', 'variable name')
    .option(...projectOpt)
    .description('Add or update a variable; the value is read from standard input (e.g. printf %s "$TOKEN" | basin secrets set STRIPE_KEY)')
    .action(async (key: string, o: { project: string }) => {
      if (process.stdin.isTTY) out(`Type the value of ${key}, then Ctrl-D:`);
      const value = await readStdin();
      if (!value) throw new CliExit(EXIT.failure, 'basin secrets: no value on standard input; pipe it in (printf %s "$VALUE" | basin secrets set KEY).');
      const r = (await viaServer(o.project, 'POST', '/api/secrets', { key, value })) ?? (await withStore(o.project, (s) => s.set(key, value, CLI_ACTOR)));
      out(`${r.created ? 'Added' : 'Updated'} ${key} in .env${r.encrypted ? ' (encrypted with BASIN_SECRET_KEY)' : ''}. A running server uses it from its next read.`);
    });
  secrets
    .command('list')
    .option('--json', 'machine-readable output')
    .option(...projectOpt)
    .description('List the variable names (values masked)')
    .action(async (o: { project: string; json?: boolean }) => {
      const rows: Array<{ key: string; value: string; encrypted: boolean; overridden_by_environment: boolean }> = (await viaServer(o.project, 'GET', '/api/secrets'))?.env ?? (await withStore(o.project, (s) => s.list()));
      if (o.json) return out(JSON.stringify(rows, null, 2));
      if (!rows.length) return out('No variables in .env.');
      for (const r of rows) out(`${r.key}\t${r.value}${r.encrypted ? '\tencrypted' : ''}${r.overridden_by_environment ? '\t(overridden by the server environment)' : ''}`);
    });
  secrets
    .command('unset')
    .argument('<key>', 'variable name')
    .option(...projectOpt)
    .description('Remove a variable from .env')
    .action(async (key: string, o: { project: string }) => {
      if (!(await viaServer(o.project, 'DELETE', `/api/secrets/${encodeURIComponent(key)}`))) await withStore(o.project, (s) => s.unset(key, CLI_ACTOR));
      out(`Removed ${key} from .env.`);
    });
  secrets
    .command('rotate-key')
    .option(...projectOpt)
    .description('Re-encrypt every value with BASIN_SECRET_KEY (old values opened with BASIN_SECRET_KEY_PREVIOUS)')
    .action(async (o: { project: string }) => {
      const server = runningServer(path.resolve(o.project));
      if (server) throw new CliExit(EXIT.failure, `basin secrets rotate-key: stop the running server (pid ${server.pid}) first, then start it with the new BASIN_SECRET_KEY after the rotation.`);
      const r = await withStore(o.project, (s) => s.rotate(CLI_ACTOR));
      out(`Re-encrypted ${r.resealed} value(s) and ${r.oauth_tokens} OAuth connection(s) with the current BASIN_SECRET_KEY; BASIN_SECRET_KEY_PREVIOUS can be removed once every server runs with the new key.`);
    });
}
