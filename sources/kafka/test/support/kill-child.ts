// Child process for kafka.test.ts: starts a sync of the project in argv[2] and says STAGED once rows
// reached the load, so the parent can SIGKILL it mid-sync.
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import { bootApp } from '@basin/test';

const app = await bootApp(process.argv[2]!, { plugins: [sourcesPlugin, syncPlugin] });
const engine = app.container.resolve<SyncEngine>('syncEngine');
let told = false;
engine.start('stream', {
  onProgress: (p) => {
    if (!told && p.totalRows > 0) {
      told = true;
      process.stdout.write('STAGED\n');
    }
  },
});
await new Promise(() => {});
