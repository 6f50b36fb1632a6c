import { isPackageNotFound } from '../errors/index.js';
import { NoopTracing, type Tracing } from './tracing.js';

/** Tracing over @opentelemetry/api when the application has it installed; no tracing when it has not. */
export async function createTracing(): Promise<Tracing> {
  try {
    const { OpenTelemetryTracing } = await import('./open-telemetry-tracing.js');
    return new OpenTelemetryTracing();
  } catch (error) {
    if (isPackageNotFound(error, '@opentelemetry/api')) return new NoopTracing();
    throw error;
  }
}
