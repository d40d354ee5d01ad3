import { Type, type Static } from '@basin/sdk';

const ENV_NAME = { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' };

/** `generic_config` of a kinesis source (SPEC keeps kinesis on generic_config). */
export const KinesisConfig = Type.Object(
  {
    region: Type.String({ minLength: 1, default: 'us-east-1' }),
    /** another endpoint than AWS's (a VPC endpoint, LocalStack, kinesalite) */
    endpoint: Type.Optional(Type.String({ pattern: '^https?://', description: 'e.g. https://kinesis.eu-west-1.amazonaws.com; default: AWS for the region' })),
    access_key_id_env: Type.String({ ...ENV_NAME, default: 'AWS_ACCESS_KEY_ID', description: 'name of the variable holding the access key id' }),
    secret_access_key_env: Type.String({ ...ENV_NAME, default: 'AWS_SECRET_ACCESS_KEY', description: 'name of the variable holding the secret access key' }),
    streams: Type.Array(Type.String({ minLength: 1 }), { default: [], uniqueItems: true, description: 'stream names; empty = every stream of the account and region' }),
    format: Type.Union([Type.Literal('json'), Type.Literal('text')], { default: 'json', description: 'json: data is a JSON column; text: the payload as UTF-8 text' }),
    max_records_per_call: Type.Integer({ minimum: 1, maximum: 10_000, default: 10_000, description: 'GetRecords Limit' }),
  },
  { additionalProperties: false, default: {} },
);
export type KinesisConfig = Static<typeof KinesisConfig>;
