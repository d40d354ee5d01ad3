import type { TSchema } from '@sinclair/typebox';
import { defineSource, notImplemented, type SourceDefinition } from './types.js';

/** A source's manifest without its runtime: config, capabilities and resources are all real. */
export type SourceManifest<S extends TSchema> = Omit<SourceDefinition<S>, 'check' | 'discover' | 'read' | 'implemented'>;

/**
 * Declares a source type whose runtime is not written yet. Its config is validated like any
 * other, and check/discover/read fail with `not_implemented` naming the type, so a sync says so.
 */
export function declareSource<S extends TSchema>(manifest: SourceManifest<S>): SourceDefinition<S> {
  const fail = () => notImplemented(manifest.type);
  return defineSource({
    ...manifest,
    implemented: false,
    async check() {
      throw fail();
    },
    async discover() {
      throw fail();
    },
    // eslint-disable-next-line require-yield
    async *read() {
      throw fail();
    },
  });
}
