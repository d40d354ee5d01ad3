// '@basin/sdk/typebox': TypeBox's exports, from the SDK's TypeBox bundle
// (dist/vendor/typebox.cjs, see src/vendor/typebox-bundle.ts) loaded with its V8 code cache. Every
// built package imports TypeBox through here (the build aliases '@sinclair/typebox' to
// '@basin/sdk/typebox'), so there is one copy and one FormatRegistry; run from sources (tsx) they
// import the package itself. The names are listed (an ES module's exports are static);
// sdk/test/typebox-bundle.test.ts checks them.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const bundle = require('./load-bundle.cjs').loadBundle(require.resolve('../dist/vendor/typebox.cjs'));

export const {
  Any, Argument, Array, AsyncIterator, Awaited, BigInt, Boolean, Capitalize, Clone, CloneRest,
  CloneType, Composite, Const, Constructor, ConstructorParameters, CreateType, Date, Enum, Exclude,
  ExcludeFromMappedResult, ExcludeFromTemplateLiteral, Extends, ExtendsCheck, ExtendsFromMappedKey,
  ExtendsFromMappedResult, ExtendsResolverError, ExtendsResult, ExtendsUndefinedCheck, Extract,
  ExtractFromMappedResult, ExtractFromTemplateLiteral, FormatRegistry, FromTypes, Function, Hint,
  Increment, Index, IndexFromComputed, IndexFromMappedKey, IndexFromMappedResult,
  IndexFromPropertyKey, IndexFromPropertyKeys, IndexPropertyKeys, InstanceType, Instantiate,
  Integer, Intersect, IntersectEvaluated, Intrinsic, IntrinsicFromMappedKey,
  IsTemplateLiteralExpressionFinite, IsTemplateLiteralFinite, Iterator, JavaScriptTypeBuilder,
  JsonTypeBuilder, KeyOf, KeyOfFromMappedResult, KeyOfPattern, KeyOfPropertyEntries,
  KeyOfPropertyKeys, KeyOfPropertyKeysToRest, Kind, KindGuard, Literal, Lowercase, Mapped,
  MappedFunctionReturnType, MappedKey, MappedResult, Module, Never, Not, Null, Number, Object,
  Omit, OmitFromMappedKey, OmitFromMappedResult, Optional, OptionalFromMappedResult, OptionalKind,
  Parameters, Partial, PartialFromMappedResult, PatternBoolean, PatternBooleanExact, PatternNever,
  PatternNeverExact, PatternNumber, PatternNumberExact, PatternString, PatternStringExact, Pick,
  PickFromMappedKey, PickFromMappedResult, Promise, Readonly, ReadonlyFromMappedResult,
  ReadonlyKind, ReadonlyOptional, Record, RecordKey, RecordPattern, RecordValue, Recursive, Ref,
  RegExp, Required, RequiredFromMappedResult, Rest, ReturnType, SetComplement, SetDistinct,
  SetIncludes, SetIntersect, SetIntersectMany, SetIsSubset, SetUnion, SetUnionMany, String, Symbol,
  TModule, TemplateLiteral, TemplateLiteralExpressionGenerate, TemplateLiteralFiniteError,
  TemplateLiteralGenerate, TemplateLiteralGenerateError, TemplateLiteralParse,
  TemplateLiteralParseExact, TemplateLiteralParserError, TemplateLiteralPattern,
  TemplateLiteralPatternError, TemplateLiteralSyntax, TemplateLiteralToUnion, Transform,
  TransformDecodeBuilder, TransformEncodeBuilder, TransformKind, Tuple, Type, TypeBoxError,
  TypeGuard, TypeRegistry, Uint8Array, Uncapitalize, Undefined, Union, UnionEvaluated, Unknown,
  Unsafe, Uppercase, ValueGuard, Void
} = bundle;
