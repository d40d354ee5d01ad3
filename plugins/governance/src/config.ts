import { Type, type Static } from '@sinclair/typebox';
import type { ConfigFileSpec } from '@basin/core';

export const PiiOverride = Type.Object(
  {
    source: Type.String(),
    table: Type.String(),
    column: Type.String(),
    status: Type.Union([Type.Literal('pii'), Type.Literal('not_pii')]),
    set_by: Type.Optional(Type.String()),
    reason: Type.Optional(Type.String()),
    updated_at: Type.Optional(Type.Union([Type.String(), Type.Date()])),
  },
  { additionalProperties: false },
);
export const PiiOverridesFile = Type.Object({ overrides: Type.Array(PiiOverride, { default: [] }) }, { additionalProperties: false, default: {} });
export type PiiOverridesFile = Static<typeof PiiOverridesFile>;

export const piiOverridesFileSpec: ConfigFileSpec = { id: 'pii-overrides', path: '.basin/pii-overrides.yml', format: 'yaml', schema: PiiOverridesFile };
