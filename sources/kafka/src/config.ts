import { Type, type Static } from '@basin/sdk';

const ENV_NAME = { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' };

/** `generic_config` of a kafka source (SPEC keeps the message stream on generic_config). */
export const KafkaConfig = Type.Object(
  {
    bootstrap_servers: Type.Array(Type.String({ pattern: '^[^\\s:/]+:\\d{1,5}$' }), { minItems: 1, description: 'host:port of one or more brokers, e.g. kafka-1.internal:9092' }),
    topics: Type.Array(Type.String({ minLength: 1, maxLength: 249 }), { default: [], uniqueItems: true, description: 'topic names; empty = every topic except the internal ones (names starting with __)' }),
    group_id: Type.Optional(Type.String({ minLength: 1, description: 'consumer group whose offsets Basin commits after each sync; default basin-<source name>' })),
    start_from: Type.Union([Type.Literal('earliest'), Type.Literal('latest')], { default: 'earliest', description: 'where a partition starts that neither Basin nor the group has read yet' }),
    value_format: Type.Union([Type.Literal('json'), Type.Literal('text')], { default: 'json', description: 'json: value is a JSON column; text: the value as UTF-8 text' }),
    key_format: Type.Union([Type.Literal('json'), Type.Literal('text')], { default: 'text', description: 'json: key is a JSON column; text: the key as UTF-8 text' }),
    security_protocol: Type.Union([Type.Literal('plaintext'), Type.Literal('ssl'), Type.Literal('sasl_plaintext'), Type.Literal('sasl_ssl')], { default: 'plaintext' }),
    ssl_ca_file: Type.Optional(Type.String({ minLength: 1, description: 'PEM file of the CA that signed the brokers\' certificates (relative to the project), when it is not a public one' })),
    sasl_mechanism: Type.Union([Type.Literal('plain'), Type.Literal('scram-sha-256'), Type.Literal('scram-sha-512')], { default: 'plain' }),
    username: Type.Optional(Type.String({ minLength: 1, description: 'SASL user (sasl_* protocols)' })),
    password_env: Type.String({ ...ENV_NAME, default: 'KAFKA_PASSWORD', description: 'name of the variable holding the SASL password (sasl_* protocols)' }),
    session_timeout_ms: Type.Integer({ minimum: 6_000, maximum: 300_000, default: 30_000, description: 'consumer group session timeout' }),
    connection_timeout_ms: Type.Integer({ minimum: 100, maximum: 120_000, default: 10_000 }),
    idle_timeout_ms: Type.Integer({ minimum: 1_000, maximum: 600_000, default: 30_000, description: 'a sync stops when no message arrived for this long although some partition is short of its high-water mark (transaction markers, deleted records)' }),
    max_bytes_per_partition: Type.Integer({ minimum: 1_024, maximum: 104_857_600, default: 1_048_576, description: 'fetch size per partition' }),
  },
  { additionalProperties: false },
);
export type KafkaConfig = Static<typeof KafkaConfig>;

/** the consumer group of a source */
export function groupId(cfg: KafkaConfig, sourceName: string): string {
  return cfg.group_id ?? `basin-${sourceName}`;
}
