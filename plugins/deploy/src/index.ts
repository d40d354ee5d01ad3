import { addExamples, coreServices, definePlugin } from '@basin/core';
import type { SourcesFile } from '@basin/plugin-sources/contract';
import { syncEngineRef } from '@basin/plugin-sync/contract';
import { initialSyncRef, INITIAL_SYNC_EVENTS } from './contract.js';
import { registerDeployCommand } from './byos/cli.js';
import { registerCloudCommands } from './hosted/cli.js';
import { registerInitialSyncCommands } from './initial-sync/cli.js';
import { DeployTokens } from './initial-sync/deploy-token.js';
import { INITIAL_SYNC_PERMISSION, registerInitialSyncRoutes } from './initial-sync/routes.js';
import { InitialSync } from './initial-sync/runner.js';
import { InitialSyncStateStore } from './initial-sync/state-store.js';
import { platformPermissions } from '@basin/plugin-platform/contract';

export { DeployTokens, DEPLOY_TOKEN_PREFIX } from './initial-sync/deploy-token.js';
export { InitialSync } from './initial-sync/runner.js';
export { InitialSyncStateStore } from './initial-sync/state-store.js';
export { DEPLOY_TOKEN_HEADER } from './initial-sync/routes.js';
export { initialSyncRef } from './contract.js';
export { DigitalOceanClient, ProviderError } from './hosted/do-client.js';
export { provision, teardown, updateCloudFile } from './hosted/provision.js';

/** Deployment to a server (`basin deploy`) and the initial sync of a fresh server (SPEC "Initial sync"). */
export default definePlugin({
  name: 'deploy',
  optionalDependsOn: ['auth', 'sources', 'sync'],
  // platform.manage (SPEC's) guards skip and cancel; declared here too so the plugin works without platform
  permissions: [{ name: INITIAL_SYNC_PERMISSION, roles: ['admin'], beyondSpec: true }, platformPermissions.manage],
  commands(cli) {
    registerInitialSyncCommands(cli);
    registerDeployCommand(cli);
    registerCloudCommands(cli);
    addExamples(cli.program, {
      deploy: ['basin deploy --dry-run', 'basin deploy'],
      'cloud provision': ['basin cloud provision', 'DIGITALOCEAN_TOKEN=... basin cloud provision --project ~/acme'],
      'cloud destroy': ['basin cloud destroy --yes'],
      'initial-sync token': ['basin initial-sync token', 'basin initial-sync token --ttl-hours 4'],
    });
  },
  register(ctx) {
    ctx.events.declare(...INITIAL_SYNC_EVENTS);
    const tokens = new DeployTokens(ctx.resolve(coreServices.stateDb), () => ctx.clock.now());
    const runner = new InitialSync(
      () => ctx.tryResolve(syncEngineRef),
      () => ((ctx.config.hasFile('sources') ? ctx.config.file<SourcesFile>('sources').sources : []) ?? []).filter((s) => s.enabled !== false).map((s) => s.name),
      ctx.events,
      ctx.clock,
      new InitialSyncStateStore(ctx.resolve(coreServices.stateDb)),
    );
    ctx.provide(initialSyncRef, runner);
    registerInitialSyncRoutes(ctx, runner, tokens);
    ctx.onStop(async () => {
      if (runner.running) runner.cancel();
      await runner.idle();
    });
  },
});
