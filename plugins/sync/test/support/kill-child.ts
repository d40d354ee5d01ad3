// Child process for kill.test.ts: starts a sync that stages rows and then waits forever, so the
// parent can SIGKILL it mid-load.
import sourcesPlugin from '@basin/plugin-sources';
import { bootApp } from '@basin/test';
import syncPlugin, { type SyncEngine } from '../../src/index.js';
import { registerTestSources } from '../helpers.js';

await registerTestSources();
const app = await bootApp(process.argv[2]!, { plugins: [sourcesPlugin, syncPlugin] });
const engine = app.container.resolve<SyncEngine>('syncEngine');
let told = false;
engine.start('shop', {
  onProgress: (p) => {
    if (!told && p.totalRows > 0) {
      told = true;
      process.stdout.write('STAGED\n');
    }
  },
});
await new Promise(() => {});
