import { BasinError } from './errors.js';

/**
 * Error catalogues: each package declares its error codes once (code, HTTP status, message) in one
 * file, `defineErrors('<package>', {...})`; handlers throw from it (`throw syncErrors.source_busy({ source })`),
 * and routes list the codes they can answer with (`errors: [...]`), so the OpenAPI document shows each
 * route's error statuses with their codes.
 */
export interface ErrorDefinition {
  status: number;
  /** the code on the wire when it differs from the entry's name (one code answered with two statuses, e.g. invalid_code as 400 and 401) */
  code?: string;
  /** the message, or a function of the arguments the thrower passes (never secrets: messages reach clients) */
  message: string | ((args: never) => string);
  /** what the code means, for the API reference */
  description?: string;
}

export interface ErrorOptions {
  details?: unknown;
  headers?: Record<string, string>;
}

type ArgsOf<D extends ErrorDefinition> = D['message'] extends (args: infer A) => string ? A : undefined;

/** One catalogued code: call it to get the error to throw. */
export type ErrorCode<D extends ErrorDefinition = ErrorDefinition> = ([ArgsOf<D>] extends [undefined]
  ? (opts?: ErrorOptions) => BasinError
  : {} extends ArgsOf<D>
    ? (args?: ArgsOf<D>, opts?: ErrorOptions) => BasinError
    : (args: ArgsOf<D>, opts?: ErrorOptions) => BasinError) &
  CatalogedError;

/** What the OpenAPI document and the route table know of a code. */
export interface CatalogedError {
  readonly code: string;
  readonly status: number;
  readonly owner: string;
  readonly description?: string;
}

export type ErrorCatalogue<T extends Record<string, ErrorDefinition>> = { readonly [K in keyof T]: ErrorCode<T[K]> };

const every = new Map<string, CatalogedError>();

/** Declares a package's codes. A code belongs to one package; declaring it again elsewhere is refused. */
export function defineErrors<const T extends Record<string, ErrorDefinition>>(owner: string, defs: T): ErrorCatalogue<T> {
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(defs)) {
    const code = def.code ?? name;
    if (!/^[a-z0-9][a-z0-9_]*$/.test(code)) throw new Error(`Error code "${code}" of ${owner} must be snake_case`);
    const prev = every.get(`${code} ${def.status}`);
    if (prev && prev.owner !== owner) throw new Error(`Error code "${code}" is declared by both ${prev.owner} and ${owner}`);
    const make = (...a: unknown[]): BasinError => {
      const fn = typeof def.message === 'function' ? (def.message as (x: unknown) => string) : null;
      const opts = (fn ? a[1] : a[0]) as ErrorOptions | undefined;
      const message = fn ? fn(a[0] ?? {}) : (def.message as string);
      return new BasinError(def.status, code, message, opts?.details, opts?.headers);
    };
    const meta: CatalogedError = { code, status: def.status, owner, ...(def.description ? { description: def.description } : {}) };
    every.set(`${code} ${def.status}`, meta);
    out[name] = Object.assign(make, meta);
  }
  return out as ErrorCatalogue<T>;
}

/** Every code declared so far (the catalogues of the packages loaded), for the reference and tests. */
export function catalogedErrors(): CatalogedError[] {
  return [...every.values()];
}
