import type { BuildResolver, BuildResolverOptions, Constructor, DisposableResolver, FunctionReturning, Resolver } from 'awilix';
import { awilix } from './lazy-deps.js';

export type { Resolver } from 'awilix';

// awilix's registration helpers for plugins, loading awilix with their first call (lazy-deps.ts)
export const asValue = <T>(value: T): Resolver<T> => awilix().asValue(value);
export const asClass = <T = object>(type: Constructor<T>, options?: BuildResolverOptions<T>): BuildResolver<T> & DisposableResolver<T> => awilix().asClass<T>(type, options);
export const asFunction = <T>(fn: FunctionReturning<T>, options?: BuildResolverOptions<T>): BuildResolver<T> & DisposableResolver<T> => awilix().asFunction<T>(fn, options);
