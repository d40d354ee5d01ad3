// `basin login` / `basin logout`: stores an API key for a server so commands reach it without BASIN_API_KEY.
import { CliExit, EXIT, forgetLogin, runningServer, saveLogin, type CliContext } from '@basin/core';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

function serverUrl(projectDir: string, url?: string): string {
  if (url) return url.replace(/\/$/, '');
  const s = runningServer(projectDir);
  if (!s) throw new CliExit(EXIT.config, 'basin login: no Basin server runs for this project; pass --url http://host:port of the server.');
  return s.url.replace(/\/$/, '');
}

export async function runLogin(cli: CliContext, projectDir: string, o: { url?: string; key?: string; keyStdin?: boolean; email?: string; passwordStdin?: boolean }): Promise<void> {
  const base = serverUrl(projectDir, o.url);
  const h = { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' };
  let key = o.key ?? (o.keyStdin ? await readStdin() : undefined);
  let email: string | null = null;
  if (!key) {
    if (!o.email) throw new CliExit(EXIT.config, 'basin login: pass --key <api key> (or --key-stdin), or --email <address> --password-stdin to create a key for this host.');
    const password = o.passwordStdin ? await readStdin() : process.env.BASIN_PASSWORD;
    if (!password) throw new CliExit(EXIT.config, 'basin login: give the password on stdin with --password-stdin (or in BASIN_PASSWORD).');
    const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: h, body: JSON.stringify({ email: o.email, password }) });
    const lb = (await login.json().catch(() => ({}))) as any;
    if (!login.ok) throw new CliExit(EXIT.failure, `basin login: ${lb?.error?.message ?? `HTTP ${login.status}`}`);
    if (lb?.two_factor_required) throw new CliExit(EXIT.failure, 'basin login: this account uses two-factor authentication; create an API key in the UI (Settings > Account) and run "basin login --key-stdin".');
    if (lb?.password_change_required || lb?.two_factor_setup_required) throw new CliExit(EXIT.failure, 'basin login: this account must first change its password or set up two-factor authentication in the UI; then run "basin login" again.');
    const cookie = (login.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
    const created = await fetch(`${base}/api/auth/api-keys`, { method: 'POST', headers: { ...h, cookie }, body: JSON.stringify({ name: `basin CLI (${process.env.USER ?? 'host'})` }) });
    const cb = (await created.json().catch(() => ({}))) as any;
    if (!created.ok || !cb.key) throw new CliExit(EXIT.failure, `basin login: could not create an API key: ${cb?.error?.message ?? `HTTP ${created.status}`}`);
    key = cb.key as string;
    await fetch(`${base}/api/auth/logout`, { method: 'POST', headers: { ...h, cookie } }).catch(() => undefined);
  }
  const me = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } });
  const mb = (await me.json().catch(() => ({}))) as any;
  if (!me.ok) throw new CliExit(EXIT.failure, `basin login: the server refused the key (${mb?.error?.message ?? `HTTP ${me.status}`}).`);
  email = mb?.email ?? mb?.user?.email ?? o.email ?? null;
  const file = saveLogin(base, { key: key!, email, saved_at: new Date().toISOString() });
  cli.stdout.write(`Logged in to ${base}${email ? ` as ${email}` : ''}${mb?.role ? ` (${mb.role})` : ''}; key stored in ${file}.\n`);
}

export async function runLogout(cli: CliContext, projectDir: string, o: { url?: string }): Promise<void> {
  const base = serverUrl(projectDir, o.url);
  cli.stdout.write(forgetLogin(base) ? `Forgot the stored key for ${base}.\n` : `No stored key for ${base}.\n`);
}
