import { CliExit, EXIT, type CliContext } from '@basin/core';
import type { AuthService } from './service.js';
import type { UserRow } from './users.js';

type WithService = <T>(project: string, fn: (s: AuthService) => Promise<T> | T) => Promise<T>;
const projectOpt = ['--project <dir>', 'project directory', process.cwd()] as const;

/** The key's owner: --user, or the only active admin when there is exactly one. */
function owner(s: AuthService, email: string | undefined): UserRow {
  if (email) {
    const u = s.users.byEmail(email);
    if (!u) throw new CliExit(EXIT.failure, `basin keys: no user ${email}; see "basin users list".`);
    if (u.status !== 'active') throw new CliExit(EXIT.failure, `basin keys: ${u.email} is ${u.status}; a key of a user who cannot log in would be refused.`);
    return u;
  }
  const admins = s.users.list().filter((u) => u.role === 'admin' && u.status === 'active');
  if (admins.length === 1) return admins[0]!;
  throw new CliExit(
    EXIT.failure,
    admins.length
      ? `basin keys: ${admins.length} active admins; say whose key this is with --user EMAIL.`
      : 'basin keys: no active user yet; add one with "basin users add EMAIL --role admin --password-stdin".',
  );
}

/**
 * `basin keys create|list|revoke`: API keys from the host, for the CLI commands that go through a
 * running server (`basin sync`, `basin tx run`) and for scripts. The key acts with its user's role.
 */
export function registerKeyCommands(cli: CliContext, withService: WithService): void {
  const out = (s: string): void => void cli.stdout.write(`${s}\n`);
  const keys = cli.program.command('keys').description('Manage API keys from the host');

  keys
    .command('create')
    .option('--user <email>', "the key's user; its role applies (default: the only active admin)")
    .option('--name <name>', 'a label to recognise the key by', 'cli')
    .option('--expires <date>', 'expiry date (YYYY-MM-DD or an ISO timestamp); default: never')
    .option(...projectOpt)
    .description('Create an API key (printed once; only its hash is stored)')
    .action(async (o: { user?: string; name: string; expires?: string; project: string }) => {
      if (o.expires && Number.isNaN(Date.parse(o.expires))) throw new CliExit(EXIT.failure, `basin keys: --expires "${o.expires}" is not a date; use YYYY-MM-DD.`);
      const created = await withService(o.project, (s) => {
        const u = owner(s, o.user);
        return { user: u, key: s.createKey(u, o.name, o.expires ?? null, 'cli') };
      });
      out(`Created API key ${created.key.id} "${created.key.name}" for ${created.user.email} (${created.user.role})${created.key.expires_at ? `, expires ${created.key.expires_at}` : ''}.`);
      out('The key is shown only now; store it safely:');
      out(created.key.key);
      out(`Use it with: export BASIN_API_KEY=${created.key.prefix}...  (the whole key above)`);
    });

  keys
    .command('list')
    .option('--user <email>', 'only this user\'s keys')
    .option('--json', 'machine-readable output')
    .option(...projectOpt)
    .description('List API keys (never the keys themselves)')
    .action(async (o: { user?: string; json?: boolean; project: string }) => {
      const rows = await withService(o.project, (s) => {
        const users = o.user ? [s.users.byEmail(o.user)].filter((u): u is UserRow => !!u) : s.users.list();
        if (o.user && !users.length) throw new CliExit(EXIT.failure, `basin keys: no user ${o.user}.`);
        return users.flatMap((u) =>
          s.keys.listForUser(u.id).map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, user: u.email, created_at: k.created_at, expires_at: k.expires_at, last_used_at: k.last_used_at, revoked_at: k.revoked_at })),
        );
      });
      if (o.json) return out(JSON.stringify(rows, null, 2));
      if (!rows.length) return out('No API keys.');
      for (const k of rows) {
        const state = k.revoked_at ? 'revoked' : k.expires_at && Date.parse(k.expires_at) <= Date.now() ? 'expired' : 'active';
        out(`${k.id}\t${k.prefix}...\t${k.name}\t${k.user}\t${state}\tlast used: ${k.last_used_at ?? 'never'}`);
      }
    });

  keys
    .command('revoke')
    .argument('<id>', 'the key id (or its prefix, as "basin keys list" shows)')
    .option(...projectOpt)
    .description('Revoke an API key; requests with it are refused at once')
    .action(async (id: string, o: { project: string }) => {
      const done = await withService(o.project, (s) => {
        const wanted = id.replace(/\.+$/, '');
        const match = s.users.list().flatMap((u) => s.keys.listForUser(u.id).map((k) => ({ k, u }))).filter(({ k }) => k.id === wanted || k.prefix === wanted);
        if (!match.length) throw new CliExit(EXIT.failure, `basin keys: no API key ${id}; see "basin keys list".`);
        if (match.length > 1) throw new CliExit(EXIT.failure, `basin keys: "${id}" matches ${match.length} keys; use the key id.`);
        const { k, u } = match[0]!;
        if (k.revoked_at) return { k, already: true };
        s.revokeKey(u, k.id, 'cli');
        return { k, already: false };
      });
      out(done.already ? `API key ${done.k.id} was already revoked.` : `Revoked API key ${done.k.id} (${done.k.prefix}...).`);
    });
}
