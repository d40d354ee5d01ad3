import { defineSource, resolveConfig, SourceError, Type, type ReadItem, type ResourceSpec, type SourceContext, type SourceDefinition, type Static } from '@basin/sdk';
import { importModule, resolveModule } from './load-module.js';

export const IngestNativeConfig = Type.Object(
  {
    source_module: Type.String({ minLength: 1, description: "Module in the project's custom_sources/ directory (e.g. shop.js)" }),
    source_function: Type.String({ pattern: '^[A-Za-z_$][A-Za-z0-9_$]*$', description: 'Exported factory returning a source (defineSource) or an async iterable of read items' }),
    function_kwargs: Type.Record(Type.String(), Type.Unknown(), { default: {}, description: 'Passed to the factory' }),
    pipeline_name: Type.Optional(Type.String({ description: 'Default: the source name' })),
    dataset_name: Type.Optional(Type.String({ description: 'Default: the source name' })),
  },
  { additionalProperties: false },
);
type Config = Static<typeof IngestNativeConfig>;

/** What the factory receives besides its kwargs. */
export interface NativeSourceContext extends SourceContext<Record<string, unknown>> {
  /** last committed state per resource ({} on a full refresh) */
  state: Record<string, Record<string, unknown>>;
  pipelineName: string;
  datasetName: string;
}

type Produced = { def: SourceDefinition; config: unknown } | { items: AsyncIterable<unknown> };

function isSourceDefinition(v: unknown): v is SourceDefinition {
  return !!v && typeof v === 'object' && typeof (v as SourceDefinition).read === 'function' && typeof (v as SourceDefinition).type === 'string';
}

function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return !!v && typeof (v as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}

function defaultResource(ctx: SourceContext<Config>): string {
  return ctx.config.dataset_name ?? ctx.name;
}

async function produce(ctx: SourceContext<Config>, state: Record<string, Record<string, unknown>>): Promise<Produced> {
  const file = await resolveModule(ctx.projectDir, ctx.config.source_module);
  const mod = await importModule(file);
  const exported = mod[ctx.config.source_function];
  if (exported === undefined) {
    const names = Object.keys(mod).filter((k) => k !== 'default');
    throw new SourceError('function_not_found', `${ctx.config.source_module} exports no "${ctx.config.source_function}"${names.length ? `; it exports ${names.join(', ')}` : ''}.`);
  }
  const kwargs = ctx.config.function_kwargs ?? {};
  if (isSourceDefinition(exported)) return { def: exported, config: kwargs };
  if (typeof exported !== 'function') throw new SourceError('function_not_found', `${ctx.config.source_function} in ${ctx.config.source_module} is not a function.`);
  const nativeCtx: NativeSourceContext = {
    ...ctx,
    config: kwargs,
    state,
    pipelineName: ctx.config.pipeline_name ?? ctx.name,
    datasetName: ctx.config.dataset_name ?? ctx.name,
  };
  let result: unknown;
  try {
    result = await (exported as (k: unknown, c: NativeSourceContext) => unknown)(kwargs, nativeCtx);
  } catch (err) {
    if (err instanceof SourceError) throw err;
    throw new SourceError('source_function_failed', `${ctx.config.source_function}(${Object.keys(kwargs).join(', ')}) threw: ${(err as Error).message}`);
  }
  if (isSourceDefinition(result)) return { def: result, config: kwargs };
  if (isAsyncIterable(result)) return { items: result };
  throw new SourceError('invalid_source_function', `${ctx.config.source_function} must return a source made with defineSource() or an async iterable of read items.`);
}

/** The context a returned SourceDefinition reads with: its config is function_kwargs with its own schema's defaults. */
function innerContext(ctx: SourceContext<Config>, def: SourceDefinition, config: unknown): SourceContext<any> {
  const { value, problems } = resolveConfig(def.configSchema, config);
  if (problems.length) {
    throw new SourceError('invalid_config', `function_kwargs do not match ${def.type}'s config: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`);
  }
  return { ...ctx, config: value };
}

/** Items from a plain iterable: ReadItems, or arrays of rows for the default resource. */
function normalise(item: unknown, fallback: string): ReadItem {
  if (Array.isArray(item)) return { kind: 'records', resource: fallback, records: item as Record<string, unknown>[] };
  const it = item as Partial<ReadItem> | null;
  if (it && typeof it === 'object' && typeof it.kind === 'string' && ['records', 'file', 'forget_files', 'state'].includes(it.kind)) {
    return { ...it, resource: it.resource ?? fallback } as ReadItem;
  }
  throw new SourceError('invalid_read_item', `A custom source yielded ${JSON.stringify(item)?.slice(0, 120)}; yield { kind: 'records', resource, records } items or arrays of rows.`);
}

/**
 * `ingest_native`: runs a user's module from the project's `custom_sources/` (DECISIONS §1). The
 * exported `source_function(function_kwargs, ctx)` returns a defineSource() source or an async
 * iterable of read items.
 */
export default defineSource({
  type: 'ingest_native',
  title: 'Custom source (ingest_native)',
  category: 'custom',
  authKind: 'none',
  wizard: true,
  configKey: 'typed',
  configSchema: IngestNativeConfig,
  capabilities: { incremental: true, dateRange: true, customQueries: false },
  docs: "Runs an exported function of a module in the project's custom_sources/ directory; the function returns a source built with @basin/sdk or yields read items.",
  async check(ctx) {
    try {
      const p = await produce(ctx, {});
      if ('def' in p) return p.def.check(innerContext(ctx, p.def, p.config));
      return { ok: true, message: `${ctx.config.source_function} returns an async iterable.` };
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
  },
  async discover(ctx): Promise<ResourceSpec[]> {
    const p = await produce(ctx, {});
    if ('def' in p) return p.def.discover(innerContext(ctx, p.def, p.config));
    return [{ name: defaultResource(ctx), writeDisposition: 'append' }];
  },
  async *read(ctx, resources, state) {
    // a full refresh starts from nothing: the factory does not see the old state
    const p = await produce(ctx, ctx.options.fullRefresh ? {} : state);
    if ('def' in p) {
      yield* p.def.read(innerContext(ctx, p.def, p.config), resources, state);
      return;
    }
    const fallback = resources[0]?.name ?? defaultResource(ctx);
    for await (const item of p.items) yield normalise(item, fallback);
  },
});
