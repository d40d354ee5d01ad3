import { Type, type Static } from '@sinclair/typebox';

/** `project` section of `.basin/project.yml` (SPEC "project section"). */
export const ProjectSection = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    organization: Type.Optional(Type.String()),
    basin_version: Type.Optional(Type.String()),
    created: Type.Union([Type.String({ format: 'date-time' }), Type.Date()]),
    created_by: Type.String({ minLength: 1 }),
    purpose: Type.String(),
    stakeholders: Type.Optional(
      Type.Array(Type.Object({ name: Type.String(), role: Type.Optional(Type.String()), contact: Type.Optional(Type.String()) }, { additionalProperties: false })),
    ),
    sla: Type.Optional(Type.String()),
    limitations: Type.Optional(Type.String()),
    getting_started: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type ProjectSection = Static<typeof ProjectSection>;

/**
 * Core's settings of the `platform` section (SPEC "platform section"). Every other setting of the
 * section belongs to a plugin and is declared in its package.json manifest (`platform-settings.ts`).
 */
export const corePlatformSettings = {
  db_path: Type.String({ default: './data/warehouse.db' }),
  data_dir: Type.String({ default: './data' }),
  port: Type.Integer({ minimum: 1, maximum: 65535, default: 8800 }),
};
export type { PlatformSettings as PlatformSection } from './platform-settings.js';
