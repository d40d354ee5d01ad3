import { definePlugin } from '@basin/core';
import { authRef } from '@basin/plugin-auth/contract';
import { registerSecretCommands } from './cli.js';
import { secretsRef } from './contract.js';
import { registerSecretRoutes } from './routes.js';
import { SecretsStore, type SecretAudit } from './store.js';

export { SecretsStore, MASK } from './store.js';
export { EnvDocument, quoteEnvValue } from './env-file.js';
export { secretsRef } from './contract.js';

/** Secrets (the project's .env) and provider OAuth for sources (SPEC "Secrets and provider OAuth"). */
export default definePlugin({
  name: 'secrets',
  optionalDependsOn: ['auth'],
  commands: registerSecretCommands,
  register(ctx) {
    // every change goes to the auth plugin's audit log: who, which key, never the value
    const audit: SecretAudit = (action, actor, key, details) =>
      ctx.tryResolve(authRef)?.audit.record({ actor: { id: actor.id, email: actor.email }, action, target: key, ip: actor.ip, outcome: 'success', details: { ...details, via: actor.via } });
    const store = new SecretsStore(ctx.config.projectDir, audit);
    ctx.provide(secretsRef, store);
    registerSecretRoutes(ctx, store, () => []);
  },
});
