import { Type } from '@sinclair/typebox';

/** `:source_name` of the sync plugin's /api/sources/{name}/... routes (same rule as the sources API) */
export const SourceParams = Type.Object({ source_name: Type.String({ pattern: '^[a-z0-9_]+$', maxLength: 200 }) });
