import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DynamicModule, INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { ProcessingOptions } from '@nest-es/core';

/**
 * What an application hands the maintenance CLI (`--app <file>`): a function, the file's default
 * export, that returns the application's root module configured with the processing options the
 * command needs (a rebuild runs only the subscriber it rebuilds, or none).
 */
export type MaintenanceEntry = (overrides: { processing: ProcessingOptions }) => DynamicModule | Type | Promise<DynamicModule | Type>;

/** Loads the application's maintenance entry; the messages name what the user gave, not our internals. */
export async function loadMaintenanceEntry(file: string | undefined): Promise<MaintenanceEntry> {
  if (file === undefined || file === '') {
    throw new Error('no application given: pass --app <file> (or set NEST_ES_APP), a built JavaScript file whose default export returns your root module');
  }
  const path = isAbsolute(file) ? file : resolve(process.cwd(), file);
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' ? 'the file does not exist (build the application first?)' : (error as Error).message;
    throw new Error(`cannot load the application from ${file}: ${reason}`, { cause: error });
  }
  // A CommonJS build of `export default` arrives as the module's `exports`, with the function on its own `default`.
  const entry = typeof loaded.default === 'function' ? loaded.default : (loaded.default as { default?: unknown } | undefined)?.default;
  if (typeof entry !== 'function') {
    throw new Error(`${file} has no default export that returns the root module: export default ({ processing }) => AppModule.forRoot({ ..., processing })`);
  }
  return entry as MaintenanceEntry;
}

/** Runs `work` in the application without HTTP, then closes it. */
export async function withApplication<T>(
  entry: MaintenanceEntry,
  processing: ProcessingOptions,
  work: (context: INestApplicationContext) => Promise<T>,
): Promise<T> {
  const context = await NestFactory.createApplicationContext(await entry({ processing }), { logger: ['error', 'warn'] });
  try {
    return await work(context);
  } finally {
    await context.close();
  }
}
