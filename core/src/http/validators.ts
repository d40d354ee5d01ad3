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
    // fastify calls the compiler with the route definition ({schema, httpPart, url, method}); the package's types name it the schema.
    // Compiled on a route's first request, not at start-up: Ajv compiling every route's schemas was
    // about a sixth of `basin start` (issue 19), for routes most servers never see called.
    return (route, meta) => {
      type Validate = ReturnType<typeof coercing>;
      let compiled: Validate | null = null;
      const validate = ((data: unknown) => {
        compiled ??= ((route as { httpPart?: string }).httpPart === 'body' ? strict : coercing)(route, meta);
        const ok = compiled(data);
        validate.errors = compiled.errors;
        return ok;
      }) as Validate;
      return validate;
    };
  };
}
