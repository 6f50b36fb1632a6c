/**
 * A feature the application turned on needs an optional peer dependency that is not installed
 * (pg, better-sqlite3, prom-client): the boot stops and says which package to install.
 */
export class MissingPeerDependencyError extends Error {
  constructor(
    readonly packageName: string,
    feature: string,
    options?: { cause?: unknown },
  ) {
    super(`${feature} needs the package ${packageName}, which is not installed: run npm install ${packageName}`, options);
    this.name = 'MissingPeerDependencyError';
  }
}

/** Whether `error` is Node's failure to find `packageName` itself (not one of its own imports). */
export function isPackageNotFound(error: unknown, packageName: string): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    (message?.includes(`'${packageName}'`) === true || message?.includes(`"${packageName}"`) === true)
  );
}
