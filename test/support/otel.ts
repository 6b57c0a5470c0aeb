/**
 * OpenTelemetry for the telemetry suites: a tracer provider exporting to memory (its spans read
 * back as plain records), a meter provider read on demand, the async-hooks context manager and the
 * W3C trace-context and baggage propagators, all registered globally as a host's `NodeSDK` would,
 * and unregistered after the file.
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { SeenRequest } from '../fixtures/fault-types.js';

/** A metric reader the test collects from when it wants to. */
class ReadOnDemand extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One exported span as a plain record. */
export interface SpanRecord {
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly status: { readonly code: number; readonly message?: string };
  /** Each event as `name`, with its attributes. */
  readonly events: readonly {
    readonly name: string;
    readonly attributes: Record<string, unknown>;
  }[];
}

/** One data point of a histogram. */
export interface HistogramPoint {
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly count: number;
  readonly sum: number;
  readonly boundaries: readonly number[];
}

/** The registered providers and what they recorded. */
export interface OtelHarness {
  /** The spans ended so far, in the order they ended. */
  spans(): SpanRecord[];
  /** Forgets the spans ended so far (done before each test already). */
  reset(): void;
  /** The data points of histogram `name`. */
  histogram(name: string): Promise<HistogramPoint[]>;
}

function recordOf(span: ReadableSpan): SpanRecord {
  return {
    name: span.name,
    kind: span.kind,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: { ...span.attributes },
    status: { ...span.status },
    events: span.events.map((event) => ({
      name: event.name,
      attributes: { ...event.attributes },
    })),
  };
}

/**
 * Registers OpenTelemetry globally for the file (before its first test) and unregisters it after
 * the last; spans are cleared before each test. `register: false` registers only the context
 * manager and the propagators, for suites that pass their own providers.
 */
export function useOtel(): OtelHarness {
  const exporter = new InMemorySpanExporter();
  const reader = new ReadOnDemand();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const contextManager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    contextManager.enable();
    context.setGlobalContextManager(contextManager);
    propagation.setGlobalPropagator(
      new CompositePropagator({
        propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
      }),
    );
    trace.setGlobalTracerProvider(tracerProvider);
    metrics.setGlobalMeterProvider(meterProvider);
  });
  beforeEach(() => {
    exporter.reset();
  });
  afterAll(async () => {
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    trace.disable();
    metrics.disable();
    propagation.disable();
    context.disable();
  });
  return {
    spans: () => exporter.getFinishedSpans().map(recordOf),
    reset: () => exporter.reset(),
    async histogram(name) {
      const { resourceMetrics } = await reader.collect();
      const points: HistogramPoint[] = [];
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          if (metric.descriptor.name !== name) continue;
          for (const point of metric.dataPoints as DataPoint<Histogram>[]) {
            points.push({
              attributes: { ...point.attributes },
              count: point.value.count,
              sum: point.value.sum ?? 0,
              boundaries: point.value.buckets.boundaries,
            });
          }
        }
      }
      return points;
    },
  };
}

/** The `params._meta` a recorded request sent, when it sent one. */
export function sentMeta(request: SeenRequest | undefined): Record<string, unknown> | undefined {
  const params = request?.rpc?.params as { _meta?: Record<string, unknown> } | undefined;
  return params?._meta;
}
