// Child process of killMidSync (sync-kill.ts): boots Basin on a project, starts a sync of one source
// and, once the source has yielded `hold_after` state checkpoints (the engine has taken them, with
// every row before them handed to staging), stops the read there and prints HOLDING, so the parent
// can SIGKILL it in the middle of the sync. The source reads its real server up to that point.
// argv: project dir, source name, source type, hold_after.
import sourcesPlugin, { loadSourceRegistry } from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import type { ReadItem } from '@basin/sdk';
import { bootApp } from '@basin/test';

const [dir, source, type, holdAfter] = process.argv.slice(2) as [string, string, string, string];
const registry = await loadSourceRegistry();
const def = registry.get(type);
if (!def) throw new Error(`no source type ${type}`);
const read = def.read.bind(def);
let staged = 0;
def.read = async function* (ctx, resources, state) {
  let states = 0;
  for await (const item of read(ctx, resources, state) as AsyncIterable<ReadItem>) {
    yield item;
    if (item.kind === 'state' && ++states >= Number(holdAfter)) {
      // batches load in the background: wait (bounded) until one has reached staging
      for (let i = 0; staged === 0 && i < 600; i++) await new Promise((r) => setTimeout(r, 100));
      process.stdout.write(`HOLDING states=${states} staged=${staged}\n`);
      await new Promise(() => {});
    }
  }
};
const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
const engine = app.container.resolve<SyncEngine>('syncEngine');
const started = engine.start(source, {
  onProgress: (p) => {
    staged = p.totalRows;
  },
});
// a sync that ends before the hold point makes the parent fail instead of wait
void engine.wait(started.id).then((r) => {
  process.stderr.write(`the sync ended (${r.status}${r.error ? `: ${r.error}` : ''}) before ${holdAfter} state checkpoint(s)\n`);
  process.exit(3);
});
await new Promise(() => {});
