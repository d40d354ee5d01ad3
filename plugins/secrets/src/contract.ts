import { createServiceRef } from '@basin/core';
import type { SecretsStore } from './store.js';

/** The public face of the secrets plugin (`@basin/plugin-secrets/contract`). */
export type { SecretsStore, SecretActor, SecretListing } from './store.js';

/** the project's `.env`, read and changed one variable at a time (values never leave it unmasked) */
export const secretsRef = createServiceRef<SecretsStore>({ id: 'secrets' });
