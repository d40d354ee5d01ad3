// fastify with the parts core builds the server from, bundled into one CommonJS file
// (dist/vendor/http.cjs): fastify, ajv, avvio, pino, find-my-way, semver, @fastify/swagger... are ~330
// small modules that every `basin start` loaded one by one (~80 ms of CPU, ~10 MB). Built, core's
// `import ... from 'fastify'` (and the others here) resolve to it through core/vendor/*.cjs (the
// build aliases them: tsup.config.ts); run from sources they are the packages themselves.
// @fastify/swagger-ui (with @fastify/static) is in it, its static files read from the package (server.ts
// passes baseDir and logo); the plugins' fastify plugins (multipart, static, http-proxy) stay separate packages:
// they register on this instance like on any other.
export { default as fastify } from 'fastify';
export { default as cookie } from '@fastify/cookie';
export { default as swagger } from '@fastify/swagger';
export { default as swaggerUi } from '@fastify/swagger-ui';
export { default as ajvCompiler } from '@fastify/ajv-compiler';
export { default as findMyWay } from 'find-my-way';
