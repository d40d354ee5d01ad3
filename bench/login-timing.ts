// Login timing: N failed logins of each kind (wrong password, unknown e-mail, inactive user) against the real
// server (bcrypt 12, SQLite, fastify inject) and a Kruskal-Wallis test that their timings are indistinguishable.
// Usage: node --conditions=development --import tsx bench/login-timing.ts [N=200]
import fs from 'node:fs';
import { bootApp, makeProject } from '@basin/test';
import type { AuthService } from '@basin/plugin-auth';

const N = Number(process.argv[2] ?? 200);
const dir = makeProject();
const f = `${dir}/.basin/project.yml`;
// raise the lockout so repeated failures keep exercising the password path (requests come from loopback: no rate limit)
fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('auth:\n  enabled: true\n', `auth:\n  enabled: true\n  lockout:\n    max_attempts: ${N * 10}\n`));
const app = await bootApp(dir);
const auth = app.container.resolve<AuthService>('auth');
const actor = { id: null, email: 'bench', ip: null };
await auth.addUserWithPassword(actor, 'real@example.com', 'viewer', 'the right password');
const gone = await auth.addUserWithPassword(actor, 'gone@example.com', 'viewer', 'the right password');
auth.users.update(gone.id, { status: 'inactive' });

const kinds = {
  wrong_password: { email: 'real@example.com', password: 'not the password' },
  unknown_email: { email: 'nobody@example.com', password: 'not the password' },
  inactive_user: { email: 'gone@example.com', password: 'the right password' },
} as const;
type Kind = keyof typeof kinds;
const samples: Record<Kind, number[]> = { wrong_password: [], unknown_email: [], inactive_user: [] };

async function once(k: Kind): Promise<number> {
  const t0 = process.hrtime.bigint();
  const r = await app.http.inject({ method: 'POST', url: '/api/auth/login', headers: { 'x-requested-with': 'XMLHttpRequest' }, payload: kinds[k] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.statusCode !== 401) throw new Error(`${k}: expected 401, got ${r.statusCode} ${r.body}`);
  return ms;
}

for (const k of Object.keys(kinds) as Kind[]) await once(k); // warm-up (the dummy hash is made on first use)
// interleave kinds so drift in machine load affects all three alike
for (let i = 0; i < N; i++) for (const k of Object.keys(kinds) as Kind[]) samples[k].push(await once(k));
await app.close();

const median = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Kruskal-Wallis H with tie correction; df = groups - 1 */
function kruskalWallis(groups: number[][]): { H: number; df: number } {
  const all = groups.flatMap((g, gi) => g.map((v) => ({ v, gi }))).sort((a, b) => a.v - b.v);
  const ranks = new Array<number>(all.length);
  let tieSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]!.v === all[i]!.v) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[k] = r;
    const t = j - i + 1;
    tieSum += t ** 3 - t;
    i = j + 1;
  }
  const n = all.length;
  const rankSums = groups.map(() => 0);
  all.forEach((x, i) => (rankSums[x.gi]! += ranks[i]!));
  let H = (12 / (n * (n + 1))) * groups.reduce((s, g, gi) => s + rankSums[gi]! ** 2 / g.length, 0) - 3 * (n + 1);
  H /= 1 - tieSum / (n ** 3 - n);
  return { H, df: groups.length - 1 };
}

const base = median(samples.wrong_password);
console.log(`login-timing: ${N} failed logins per kind (bcrypt cost 12)`);
for (const k of Object.keys(samples) as Kind[]) {
  console.log(`  ${k.padEnd(15)} median ${median(samples[k]).toFixed(1)} ms  ratio vs wrong_password ${(median(samples[k]) / base).toFixed(3)}`);
}
const { H, df } = kruskalWallis(Object.values(samples));
// chi-square(2) survival function is exp(-H/2)
const p = Math.exp(-H / 2);
console.log(`  Kruskal-Wallis H = ${H.toFixed(3)} (df ${df}), p = ${p.toFixed(3)} -> ${p > 0.05 ? 'indistinguishable at the 5% level' : 'DISTINGUISHABLE at the 5% level'}`);
