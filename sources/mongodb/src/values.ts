import { flattenRecord } from '@basin/sdk';

type Bsonish = { _bsontype?: string; [k: string]: unknown };

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A BSON value as plain JSON data: ObjectId → hex text, Date → ISO text, Int64 → a number when it is
 * exact in a double else decimal text, Decimal128 → decimal text (exact), UUID → its text form, other
 * binary → base64, regular expressions → `/source/flags`, Timestamp → `{t, i}`, MinKey/MaxKey →
 * their names; nested documents and arrays converted the same way, throughout.
 */
export function plainValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object') return typeof v === 'number' && !Number.isFinite(v) ? null : v;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (Array.isArray(v)) return v.map(plainValue);
  if (v instanceof RegExp) return `/${v.source}/${v.flags}`;
  const b = v as Bsonish;
  switch (b._bsontype) {
    case 'ObjectId':
    case 'ObjectID':
      return (b as unknown as { toHexString(): string }).toHexString();
    case 'Long': {
      const big = BigInt((b as unknown as { toString(): string }).toString());
      return big <= MAX_SAFE && big >= -MAX_SAFE ? Number(big) : big.toString();
    }
    case 'Decimal128':
    case 'Double':
    case 'Int32':
      return b._bsontype === 'Decimal128' ? String(b) : Number((b as unknown as { valueOf(): number }).valueOf());
    case 'Binary': {
      const bin = b as unknown as { sub_type: number; toUUID(): { toHexString(dashes?: boolean): string }; toString(enc: string): string };
      if (bin.sub_type === 4) return bin.toUUID().toHexString(true);
      return bin.toString('base64');
    }
    case 'BSONRegExp':
      return `/${String(b.pattern)}/${String(b.options)}`;
    case 'Timestamp': {
      const t = b as unknown as { t: number; i: number };
      return { t: t.t, i: t.i };
    }
    case 'MinKey':
    case 'MaxKey':
      return b._bsontype;
    case 'Code':
      return String(b.code);
    case 'BSONSymbol':
      return String(b.value);
    case 'DBRef': {
      const r = b as unknown as { collection: string; oid: unknown; db?: string };
      return { $ref: r.collection, $id: plainValue(r.oid), ...(r.db ? { $db: r.db } : {}) };
    }
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = plainValue((v as Record<string, unknown>)[k]);
  return out;
}

/**
 * One warehouse row per document, shaped like the REST vendors' records (the SDK's flattenRecord:
 * nested fields as `parent__child` columns, three levels, arrays as JSON text). `_id` stays one
 * column (the merge key): a compound `_id` is kept as JSON text.
 */
export function documentRow(doc: Record<string, unknown>): Record<string, unknown> {
  const plain = plainValue(doc) as Record<string, unknown>;
  const id = plain._id;
  const { _id: _drop, ...rest } = plain;
  void _drop;
  return { _id: id !== null && typeof id === 'object' ? JSON.stringify(id) : id, ...flattenRecord(rest) };
}
