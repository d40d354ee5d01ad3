// Child process for vendor-sync.test.ts: starts a sync of the named source and says STAGED once
// rows reached staging, so the parent can SIGKILL it mid-load.
import sourcesPlugin from '@basin/plugin-sources';
import { bootApp } from '@basin/test';
import syncPlugin, { type SyncEngine } from '../../src/index.js';

const app = await bootApp(process.argv[2]!, { plugins: [sourcesPlugin, syncPlugin] });
const engine = app.container.resolve<SyncEngine>('syncEngine');
let told = false;
engine.start(process.argv[3]!, {
  onProgress: (p) => {
    if (!told && p.totalRows > 0) {
      told = true;
      process.stdout.write('STAGED\n');
    }
  },
});
await new Promise(() => {});
