/**
 * The alternatives of the telemetry table (section 13), each in a client process of its own, as
 * three hosts would run ours against the same 2026-07-28 server: `telemetry: false` (nothing is
 * looked up), the default with `@opentelemetry/api` installed and nothing registered (what every
 * host that does not trace runs), and a host that traces: the SDK's `BasicTracerProvider` with a
 * `BatchSpanProcessor` to an exporter that drops the batches, a `MeterProvider` with no reader
 * export, and the W3C propagators, so spans, events, the histogram and the trace context are all
 * built.
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  ExportResultCode,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { type CallAlternative, oursAlternative } from './clients.js';

/** The ids of the telemetry table. */
export type TelemetryId = 'ours-telemetry-off' | 'ours-no-provider' | 'ours-traced';

/** An exporter that takes every batch and keeps nothing. */
const dropping: SpanExporter = {
  export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }),
  shutdown: async () => {},
};

function registerTracing(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    }),
  );
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] }),
  );
  metrics.setGlobalMeterProvider(new MeterProvider());
}

/** Ours (2026-07-28, `auto`) with the telemetry of `id`. */
export function oursTelemetryAlternative(url: string, id: TelemetryId): Promise<CallAlternative> {
  if (id === 'ours-traced') registerTracing();
  const names: Readonly<Record<TelemetryId, string>> = {
    'ours-telemetry-off': 'ours, telemetry: false',
    'ours-no-provider': 'ours, @opentelemetry/api installed, nothing registered (default)',
    'ours-traced': 'ours, a tracer and a meter provider registered',
  };
  return oursAlternative(url, {
    id,
    name: names[id],
    config: {
      name: 'bench-telemetry',
      transport: { url },
      ...(id === 'ours-telemetry-off' ? { telemetry: false as const } : {}),
    },
  });
}
