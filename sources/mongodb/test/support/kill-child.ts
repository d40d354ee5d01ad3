// Child process for mongodb.test.ts: boots Basin and starts a sync of the named mongodb source. It
// prints READING once the first batch of documents has been handed to the engine (observed by
// wrapping the registered source's read, which it does not change), so the parent can freeze the
// server and SIGKILL this process in the middle of the read.
import sourcesPlugin, { loadSourceRegistry } from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import type { ReadItem, SourceDefinition } from '@basin/sdk';
import { bootApp } from '@basin/test';

const reg = await loadSourceRegistry();
const def = reg.get('mongodb') as SourceDefinition;
const read = def.read.bind(def);
def.read = async function* (ctx, resources, state): AsyncGenerator<ReadItem> {
  let told = false;
  for await (const item of read(ctx, resources, state)) {
    yield item;
    if (!told && item.kind === 'records') {
      told = true;
      process.stdout.write('READING\n');
    }
  }
};
const app = await bootApp(process.argv[2]!, { plugins: [sourcesPlugin, syncPlugin] });
const engine = app.container.resolve<SyncEngine>('syncEngine');
engine.start(process.argv[3]!);
await new Promise(() => {});
