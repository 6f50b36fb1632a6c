import Module, { register } from 'node:module';

/*
 * Preloaded with `node --import` in child processes: the packages named in REFUSE_PACKAGES
 * (comma-separated) look not installed, to `import` (an ESM resolve hook) and to `require`
 * (TypeORM loads its drivers with require, which the hook does not see in Node 20, by name and
 * then by path under the working directory's node_modules).
 */
const refused = (process.env.REFUSE_PACKAGES ?? '').split(',').filter((name) => name !== '');
const isRefused = (request: string) =>
  refused.some((name) => request === name || request.startsWith(`${name}/`) || request.endsWith(`/node_modules/${name}`) || request.includes(`/node_modules/${name}/`));

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      const refused = ${JSON.stringify(refused)};
      export async function resolve(specifier, context, next) {
        if (refused.some((name) => specifier === name || specifier.startsWith(name + '/'))) {
          throw Object.assign(new Error("Cannot find package '" + specifier + "' (refused by the test)"), { code: 'ERR_MODULE_NOT_FOUND' });
        }
        return next(specifier, context);
      }`),
);

const loader = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
const resolveFilename = loader._resolveFilename;
loader._resolveFilename = function (request: string, ...rest: unknown[]): string {
  if (isRefused(request)) {
    throw Object.assign(new Error(`Cannot find module '${request}' (refused by the test)`), { code: 'MODULE_NOT_FOUND' });
  }
  return resolveFilename.call(this, request, ...rest);
};
