import { Module } from '@nestjs/common';
import { withTracing } from './tracing.js';

@Module({})
class Root {}

describe('the poker server\'s tracing switch', () => {
  const root = { module: Root };

  it('traces nothing unless OTEL_TRACES_EXPORTER asks (unset or none)', () => {
    expect(withTracing(root, {})).toBe(root);
    expect(withTracing(root, { OTEL_TRACES_EXPORTER: 'none' })).toBe(root);
  });

  it('refuses an exporter it does not know, naming the ones it does', () => {
    expect(() => withTracing(root, { OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow("OTEL_TRACES_EXPORTER must be console, otlp or none, got 'zipkin'");
  });
});
