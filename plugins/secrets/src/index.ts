import { addExamples, coreServices, definePlugin } from '@basin/core';
import { authRef } from '@basin/plugin-auth/contract';
import { sourceOAuthRef, sourceRegistryRef } from '@basin/plugin-sources/contract';
import { registerSecretCommands } from './cli.js';
import { secretsRef } from './contract.js';
import { OAuthSection } from './oauth/config.js';
import { ConnectFlow } from './oauth/connect-flow.js';
import { OAuthConnections } from './oauth/connections.js';
import { registerOAuthRoutes } from './oauth/routes.js';
import { fileKeys, tokenKeys } from './oauth/token-key.js';
import { OAuthTokenStore } from './oauth/token-store.js';
import { registerSecretRoutes } from './routes.js';
import { SecretsStore, type SecretAudit } from './store.js';
import { platformPermissions } from '@basin/plugin-platform/contract';

export { SecretsStore, MASK } from './store.js';
export { EnvDocument, quoteEnvValue } from './env-file.js';
export { secretsRef } from './contract.js';
export { OAuthSection } from './oauth/config.js';
export { OAuthConnections, type OAuthStatus } from './oauth/connections.js';

/** Secrets (the project's .env) and provider OAuth for sources (SPEC "Secrets and provider OAuth"). */
export default definePlugin({
  name: 'secrets',
  optionalDependsOn: ['auth', 'sources'],
  // SPEC guards the secrets routes with config.manage; declared here too so the plugin works without platform
  permissions: [platformPermissions.config_manage],
  configSections: [{ section: 'oauth', schema: OAuthSection }],
  commands(cli) {
    registerSecretCommands(cli);
    addExamples(cli.program, {
      'secrets set': ['printf %s "$TOKEN" | basin secrets set STRIPE_API_KEY', 'basin secrets set DB_URL < db-url.txt'],
      'secrets list': ['basin secrets list', 'basin secrets list --json'],
      'secrets unset': ['basin secrets unset OLD_TOKEN'],
      'secrets rotate-key': ['BASIN_SECRET_KEY=<new key> basin secrets rotate-key'],
    });
  },
  register(ctx) {
    // every change goes to the auth plugin's audit log: who, which key, never the value
    const audit: SecretAudit = (action, actor, key, details, outcome = 'success') =>
      ctx.tryResolve(authRef)?.audit.record({ actor: { id: actor.id, email: actor.email }, action, target: key, ip: actor.ip, outcome, details: { ...details, via: actor.via } });
    const section = () => ctx.config.section<OAuthSection>('oauth');
    const tokenStore = new OAuthTokenStore(ctx.resolve(coreServices.stateDb), () => tokenKeys(ctx.config.projectDir));
    // a key rotation re-seals the stored OAuth tokens too (the old key still opens them meanwhile)
    const store = new SecretsStore(ctx.config.projectDir, audit, process.env, (keys) => tokenStore.reseal([...keys, ...fileKeys(ctx.config.projectDir)]));
    ctx.provide(secretsRef, store);

    const connections = new OAuthConnections({ store: tokenStore, registry: () => ctx.tryResolve(sourceRegistryRef), section, env: (n) => ctx.config.env(n), clock: ctx.clock });
    ctx.provide(sourceOAuthRef, connections);
    const flow = new ConnectFlow(connections, tokenStore, ctx.clock, () => section().state_ttl_seconds);
    const publicUrl = () => (section().public_url ?? ctx.config.env('BASIN_PUBLIC_URL') ?? null)?.replace(/\/+$/, '') ?? null;

    registerSecretRoutes(ctx, store, () => connections.status());
    registerOAuthRoutes(ctx, { connections, flow, audit, publicUrl });
    // keep tokens fresh between syncs
    let timer: NodeJS.Timeout | undefined;
    ctx.onStart(() => {
      timer = setInterval(() => {
        void connections.refreshDue().then(({ failed }) => {
          for (const f of failed) ctx.log.warn({ source_type: f.source_type }, `OAuth token refresh failed: ${f.error}`);
        });
      }, 60_000);
      timer.unref();
    });
    ctx.onStop(() => clearInterval(timer));
    ctx.health(() => ({ oauth_tokens: connections.status().filter((s) => s.connected).map((s) => ({ source_type: s.source_type, state: s.state, expires_at: s.expires_at })) }));
  },
});
