import { flattenRecord } from '@basin/sdk';
import { Binary, BSONRegExp, BSONSymbol, Code, DBRef, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp, UUID } from 'mongodb';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A BSON value as plain JSON data: ObjectId → hex text, Date → ISO text, Int64 → a number when it is
 * exact in a double else decimal text, Decimal128 → decimal text (exact), UUID → its text form, other
 * binary → base64, regular expressions → `/source/flags`, Timestamp → `{t, i}`, MinKey/MaxKey →
 * their names, NaN and infinities → null; nested documents and arrays converted the same way.
 */
export function plainValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object') return typeof v === 'number' && !Number.isFinite(v) ? null : v;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (Array.isArray(v)) return v.map(plainValue);
  // every BSON class names itself in _bsontype; plain sub-documents (the common case) have none
  const tag = (v as { _bsontype?: unknown })._bsontype;
  if (typeof tag !== 'string') {
    if (v instanceof RegExp) return `/${v.source}/${v.flags}`;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) out[k] = plainValue((v as Record<string, unknown>)[k]);
    return out;
  }
  if (v instanceof ObjectId) return v.toHexString();
  // Timestamp is a kind of Long: first
  if (v instanceof Timestamp) return { t: v.t, i: v.i };
  if (v instanceof Long) {
    const big = BigInt(v.toString());
    return big <= MAX_SAFE && big >= -MAX_SAFE ? Number(big) : big.toString();
  }
  if (v instanceof Decimal128) return v.toString();
  if (v instanceof Double || v instanceof Int32) return plainValue(v.valueOf());
  if (v instanceof UUID) return v.toHexString(true);
  if (v instanceof Binary) return v.sub_type === Binary.SUBTYPE_UUID ? v.toUUID().toHexString(true) : v.toString('base64');
  if (v instanceof BSONRegExp) return `/${v.pattern}/${v.options}`;
  if (v instanceof MinKey) return 'MinKey';
  if (v instanceof MaxKey) return 'MaxKey';
  if (v instanceof Code) return v.code;
  if (v instanceof BSONSymbol) return v.valueOf();
  if (v instanceof DBRef) return { $ref: v.collection, $id: plainValue(v.oid), ...(v.db ? { $db: v.db } : {}) };
  return String(tag);
}

/**
 * One warehouse row per document, shaped like the REST vendors' records (the SDK's flattenRecord:
 * nested fields as `parent__child` columns, three levels, arrays as JSON text). `_id` stays one
 * column (the merge key): a compound `_id` is kept as JSON text.
 */
export function documentRow(doc: Record<string, unknown>): Record<string, unknown> {
  const plain = plainValue(doc) as Record<string, unknown>;
  const id = plain._id;
  if (id !== null && typeof id === 'object') plain._id = JSON.stringify(id);
  return flattenRecord(plain);
}
