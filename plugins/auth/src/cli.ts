import fs from 'node:fs';
import path from 'node:path';
import { parseDocument, parse } from 'yaml';
import { Value } from '@sinclair/typebox/value';
import { addExamples, CliExit, EXIT, isBasinError, isRole, PROJECT_FILE, systemClock, writeFileAtomic, type CliContext } from '@basin/core';
import { AuthSection } from './config.js';
import { openAuthDb } from './db.js';
import { registerKeyCommands } from './cli-keys.js';
import { AuthService } from './service.js';

/**
 * The config view the CLI needs, read straight from the project files: the auth commands open
 * auth.db directly (SQLite WAL lets a running server share it) instead of booting every plugin.
 */
export function cliConfig(projectDir: string) {
  const file = path.join(projectDir, PROJECT_FILE);
  if (!fs.existsSync(file)) throw new CliExit(EXIT.failure, `No Basin project in ${projectDir} (${PROJECT_FILE} is missing); pass --project DIR.`);
  const raw = (parse(fs.readFileSync(file, 'utf8')) ?? {}) as Record<string, any>;
  const auth = Value.Default(AuthSection, structuredClone(raw.auth ?? {})) as AuthSection;
  const platform = { deployment: 'local', ...(raw.platform ?? {}) };
  const dotenv = readDotenv(path.join(projectDir, '.env'));
  return {
    projectDir,
    platform,
    section: <T>(name: string): T => (name === 'auth' ? auth : raw[name]) as T,
    env: (name: string): string | undefined => process.env[name] ?? dotenv[name],
  };
}

function readDotenv(file: string): Record<string, string> {
  if (!fs.existsSync(file)) return {};
  const out: Record<string, string> = {};
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (m) out[m[1]!] = m[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

export function openCliService(projectDir: string): AuthService {
  const config = cliConfig(projectDir);
  return new AuthService(openAuthDb(path.join(projectDir, '.basin', 'auth.db')), config as never, systemClock);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

const CLI_ACTOR = { id: null, email: 'cli', ip: 'cli' };

export function registerAuthCommands(cli: CliContext): void {
  const out = (s: string): void => void cli.stdout.write(`${s}\n`);
  const withService = async <T>(project: string, fn: (s: AuthService) => Promise<T> | T): Promise<T> => {
    const svc = openCliService(path.resolve(project));
    try {
      return await fn(svc);
    } catch (e) {
      if (isBasinError(e)) throw new CliExit(EXIT.failure, `basin: ${e.message}`);
      throw e;
    } finally {
      svc.db.close();
    }
  };
  const projectOpt = ['--project <dir>', 'project directory', process.cwd()] as const;

  const auth = cli.program.command('auth').description('Authentication settings');
  auth
    .command('enable')
    .option(...projectOpt)
    .description('Turn authentication on (auth.enabled: true in .basin/project.yml)')
    .action(async (o: { project: string }) => {
      const file = path.join(path.resolve(o.project), PROJECT_FILE);
      if (!fs.existsSync(file)) throw new CliExit(EXIT.failure, `No Basin project in ${o.project}.`);
      const doc = parseDocument(fs.readFileSync(file, 'utf8'));
      doc.setIn(['auth', 'enabled'], true);
      writeFileAtomic(file, doc.toString());
      const users = await withService(o.project, (s) => s.users.count());
      out('Authentication is enabled.');
      if (!users) out('No users yet: run "basin users add EMAIL --role admin --password-stdin", or start Basin and open the one-time setup link it prints.');
    });

  auth
    .command('status')
    .option(...projectOpt)
    .option('--json', 'machine-readable output')
    .description('Show whether authentication is on, session limits and user counts')
    .action(async (o: { project: string; json?: boolean }) => {
      const status = await withService(o.project, (s) => {
        const st = s.settings();
        const users = s.users.list();
        return {
          enabled: st.enabled,
          deployment: cliConfig(path.resolve(o.project)).platform.deployment,
          idle_timeout_minutes: st.idle_timeout_minutes,
          session_max_days: st.session_max_days,
          require_2fa: st.require_2fa,
          password_max_age_days: st.password_max_age_days,
          oauth_providers: Object.keys(st.oauth_providers),
          users: users.length,
          active_admins: s.users.activeAdminCount(),
          locked_emails: s.lockout.lockedEmails(),
        };
      });
      if (o.json) return out(JSON.stringify(status, null, 2));
      out(`Authentication: ${status.enabled ? 'enabled' : 'DISABLED (loopback only)'}`);
      out(`Sessions: idle ${status.idle_timeout_minutes} min, absolute ${status.session_max_days} days (${status.deployment})`);
      out(`Two-factor required: ${status.require_2fa ? 'yes' : 'no'}; password rotation: ${status.password_max_age_days ? `${status.password_max_age_days} days` : 'off'}`);
      out(`OAuth providers: ${status.oauth_providers.join(', ') || 'none'}`);
      out(`Users: ${status.users} (${status.active_admins} active admin${status.active_admins === 1 ? '' : 's'})`);
      if (status.locked_emails.length) out(`Locked out: ${status.locked_emails.join(', ')}`);
    });

  const users = cli.program.command('users').description('Manage users from the host');
  users
    .command('add')
    .argument('<email>', 'e-mail address (login name)')
    .requiredOption('--role <role>', 'admin, editor or viewer')
    .option('--password-stdin', 'read the password from standard input (otherwise an invite link is printed)')
    .option(...projectOpt)
    .description('Add a user')
    .action(async (email: string, o: { role: string; passwordStdin?: boolean; project: string }) => {
      if (!isRole(o.role)) throw new CliExit(EXIT.failure, `basin: --role must be admin, editor or viewer, not "${o.role}".`);
      const password = o.passwordStdin ? await readStdin() : undefined;
      await withService(o.project, async (s) => {
        if (password !== undefined) {
          const u = await s.addUserWithPassword(CLI_ACTOR, email, o.role as 'admin', password);
          out(`Added ${u.email} (${u.role}, active).`);
        } else {
          const r = s.createUser(CLI_ACTOR, email, o.role as 'admin');
          out(`Invited ${r.user.email} (${r.user.role}). Invite link (valid 72 hours, single use): /invite/${r.token}`);
        }
      });
    });

  users
    .command('list')
    .option(...projectOpt)
    .option('--json', 'machine-readable output')
    .description('List users with role, status and last login')
    .action(async (o: { project: string; json?: boolean }) => {
      const rows = await withService(o.project, (s) => {
        const locked = new Set(s.lockout.lockedEmails());
        return s.users.list().map((u) => ({ email: u.email, role: u.role, status: u.status, two_factor: !!u.totp_enabled, last_login_at: u.last_login_at, locked: locked.has(u.email) }));
      });
      if (o.json) return out(JSON.stringify(rows, null, 2));
      if (!rows.length) return out('No users.');
      for (const r of rows) out(`${r.email}\t${r.role}\t${r.status}${r.locked ? ' (locked)' : ''}\t2fa:${r.two_factor ? 'on' : 'off'}\tlast login: ${r.last_login_at ?? 'never'}`);
    });

  users
    .command('unlock')
    .argument('<email>')
    .option(...projectOpt)
    .description('Clear the login lockout of an e-mail (from every address)')
    .action(async (email: string, o: { project: string }) => {
      const n = await withService(o.project, (s) => s.unlock(CLI_ACTOR, email));
      out(n ? `Unlocked ${email}.` : `${email} was not locked.`);
    });

  users
    .command('recover-admin')
    .argument('<email>')
    .option(...projectOpt)
    .description("Emergency: reset an admin's password and 2FA from the host (audited)")
    .action(async (email: string, o: { project: string }) => {
      const temp = await withService(o.project, (s) => s.recoverAdmin(email));
      out(`Reset ${email}: two-factor removed, sessions ended. Temporary password (must be changed at login):`);
      out(temp);
    });

  registerKeyCommands(cli, withService);
  addExamples(cli.program, {
    'auth enable': ['basin auth enable'],
    'auth status': ['basin auth status --json'],
    'users add': ['basin users add ann@example.com --role editor', 'basin users add ops@example.com --role admin --password-stdin < pw.txt'],
    'users list': ['basin users list --json'],
    'users unlock': ['basin users unlock ann@example.com'],
    'users recover-admin': ['basin users recover-admin admin@example.com'],
    'keys create': ['basin keys create --user ann@example.com --name ci --expires 2027-01-01'],
    'keys list': ['basin keys list --json'],
    'keys revoke': ['basin keys revoke basin_ak_AbC'],
  });
}
