import AjvCompiler from '@fastify/ajv-compiler';

/**
 * Fastify's validator builder with two Ajv instances: query strings, params and headers are text,
 * so they are coerced (`?limit=5` is the integer 5, `?tag=a` a one-item array); a JSON body already
 * has types, so it is not: `{"sql": ["select 1"]}` or `{"limit": "5"}` is a 422, never silently
 * turned into something the client did not send.
 */
export function strictBodyValidatorBuilder(): AjvCompiler.BuildCompilerFromPool {
  const build = AjvCompiler();
  return (externalSchemas, options) => {
    const coercing = build(externalSchemas, options);
    const strict = build(externalSchemas, options?.mode === 'JTD' ? options : { ...options, customOptions: { ...options?.customOptions, coerceTypes: false } });
    // fastify calls the compiler with the route definition ({schema, httpPart, url, method}); the package's types name it the schema
    return (route, meta) => ((route as { httpPart?: string }).httpPart === 'body' ? strict : coercing)(route, meta);
  };
}
