import { Type, type Static } from '@basin/sdk';

const ENV_NAME = { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' };
const TABLE = { pattern: '^[a-z_][a-z0-9_]*$', maxLength: 63 };

/** Where data attachments whose file name matches go (first match wins); others go to attachments_<format>. */
export const AttachmentTable = Type.Object(
  {
    table: Type.String({ ...TABLE, description: 'the raw table these attachments load into' }),
    filename: Type.String({ minLength: 1, description: 'glob on the attachment file name, case-insensitive: sales-*.csv' }),
  },
  { additionalProperties: false },
);

/** `generic_config` of an inbox source (SPEC keeps the IMAP inbox on generic_config). */
export const InboxConfig = Type.Object(
  {
    host: Type.String({ minLength: 1, description: 'IMAP server, e.g. imap.example.com' }),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'default 993 with tls, 143 without' })),
    tls: Type.Boolean({ default: true, description: 'true: implicit TLS (IMAPS); false: plain connection, upgraded with STARTTLS when the server offers it' }),
    verify_certificate: Type.Boolean({ default: true, description: 'false accepts a self-signed server certificate' }),
    username: Type.String({ minLength: 1 }),
    password_env: Type.String({ ...ENV_NAME, default: 'INBOX_PASSWORD', description: 'name of the variable holding the password (or app password)' }),
    folders: Type.Array(Type.String({ minLength: 1 }), { default: ['INBOX'], minItems: 1, uniqueItems: true, description: 'mailboxes to read, e.g. [INBOX, Reports/Daily]' }),
    start_date: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'first sync of a folder: messages received on or after this day (IMAP SINCE)' })),
    from: Type.Array(Type.String({ minLength: 1 }), { default: [], description: 'only messages whose From contains one of these (IMAP FROM); [] = any sender' }),
    subject: Type.Optional(Type.String({ minLength: 1, description: 'only messages whose Subject contains this (IMAP SUBJECT)' })),
    body: Type.Boolean({ default: true, description: 'keep the text body (the text/plain part, else text/html) in messages.body_text' }),
    max_body_bytes: Type.Integer({ minimum: 0, maximum: 10_485_760, default: 65_536, description: 'bytes of body text kept per message' }),
    attachments: Type.Boolean({ default: true, description: 'load CSV, JSON and Parquet attachments as tables' }),
    attachment_tables: Type.Array(AttachmentTable, { default: [], description: 'route attachments by file name into tables of their own' }),
    max_attachment_bytes: Type.Integer({ minimum: 1, default: 104_857_600, description: 'larger attachments are listed but not loaded' }),
    batch_size: Type.Integer({ minimum: 1, maximum: 5000, default: 500, description: 'messages per FETCH' }),
  },
  { additionalProperties: false, default: {} },
);
export type InboxConfig = Static<typeof InboxConfig>;

export function portOf(cfg: InboxConfig): number {
  return cfg.port ?? (cfg.tls ? 993 : 143);
}
