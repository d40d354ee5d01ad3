import { Type, type Static } from '@sinclair/typebox';

/** project.yml `notebooks:` (SPEC leaves lock expiry and heartbeat open: docs/decisions.md) */
export const NotebooksSection = Type.Object(
  {
    enabled: Type.Boolean({ default: true, description: 'false: no notebook routes, no marimo' }),
    lock_minutes: Type.Integer({ minimum: 1, maximum: 1440, default: 10, description: 'a lock without heartbeats expires after this long' }),
    max_servers: Type.Integer({ minimum: 1, maximum: 50, default: 3, description: 'notebook servers running at once (each is a marimo process)' }),
    idle_minutes: Type.Integer({ minimum: 1, maximum: 1440, default: 30, description: 'a server nobody has open (no editor tab, no request) this long stops and its lock is released' }),
    start_timeout_seconds: Type.Integer({ minimum: 5, maximum: 600, default: 90 }),
  },
  { additionalProperties: false, default: {} },
);
export type NotebooksSection = Static<typeof NotebooksSection>;
