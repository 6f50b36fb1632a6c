import { type DynamicModule, Module, type OnApplicationShutdown } from '@nestjs/common';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, NodeTracerProvider, SimpleSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-node';

/**
 * The poker server with the OpenTelemetry SDK it chooses (the framework only speaks
 * @opentelemetry/api): OTEL_TRACES_EXPORTER=console prints each span as it ends; =otlp sends them
 * over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318); unset or =none
 * traces nothing. OTEL_SERVICE_NAME names the service (default poker).
 */
export function withTracing(root: DynamicModule, env: NodeJS.ProcessEnv = process.env): DynamicModule {
  const processor = spanProcessor(env.OTEL_TRACES_EXPORTER || 'none');
  if (!processor) return root;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'poker' }),
    spanProcessors: [processor],
  });
  provider.register();

  /** Sends the spans still buffered when the server stops. */
  @Module({})
  class TracedServer implements OnApplicationShutdown {
    onApplicationShutdown(): Promise<void> {
      return provider.shutdown();
    }
  }
  return { module: TracedServer, imports: [root] };
}

function spanProcessor(exporter: string): SpanProcessor | undefined {
  switch (exporter) {
    case 'none':
      return undefined;
    case 'console':
      return new SimpleSpanProcessor(new ConsoleSpanExporter());
    case 'otlp':
      return new BatchSpanProcessor(new OTLPTraceExporter());
    default:
      throw new Error(`OTEL_TRACES_EXPORTER must be console, otlp or none, got '${exporter}'`);
  }
}
