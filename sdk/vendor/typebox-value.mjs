// '@basin/sdk/typebox/value': TypeBox's Value exports, from the SDK's TypeBox bundle
// (dist/vendor/typebox.cjs, see src/vendor/typebox-bundle.ts) loaded with its V8 code cache. Every
// built package imports TypeBox through here (the build aliases '@sinclair/typebox' to
// '@basin/sdk/typebox'), so there is one copy and one FormatRegistry; run from sources (tsx) they
// import the package itself. The names are listed (an ES module's exports are static);
// sdk/test/typebox-bundle.test.ts checks them.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const bundle = require('./load-bundle.cjs').loadBundle(require.resolve('../dist/vendor/typebox.cjs')).Value__;

export const {
  Assert, AssertError, Cast, Check, Clean, Clone, Convert, Create, Decode, Default, Delete, Diff,
  Edit, Encode, Equal, HasPropertyKey, HasTransform, Hash, Insert, IsArray, IsAsyncIterator,
  IsBigInt, IsBigInt64Array, IsBigUint64Array, IsBoolean, IsDate, IsFloat32Array, IsFloat64Array,
  IsFunction, IsInstanceObject, IsInt16Array, IsInt32Array, IsInt8Array, IsInteger, IsIterator,
  IsMap, IsNull, IsNumber, IsObject, IsPromise, IsRegExp, IsSet, IsStandardObject, IsString,
  IsSymbol, IsTypedArray, IsUint16Array, IsUint32Array, IsUint8Array, IsUint8ClampedArray,
  IsUndefined, IsValueType, Mutate, Parse, ParseDefault, ParseError, ParseRegistry, Patch,
  TransformDecode, TransformDecodeCheckError, TransformDecodeError, TransformEncode,
  TransformEncodeCheckError, TransformEncodeError, Update, Value, ValueCastError,
  ValueCheckUnknownTypeError, ValueCreateError, ValueDiffError, ValueErrorIterator, ValueErrorType,
  ValueHashError, ValueMutateError, ValuePointer
} = bundle;
