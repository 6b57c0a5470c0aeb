/**
 * OpenTelemetry for connection operations (decision 0032), through the optional peer
 * `@opentelemetry/api`: one `mcp.client` span (kind CLIENT) per MCP operation with the machine's
 * transitions as its events, the `mcp.client.operation.duration` histogram, one client span per
 * OpenAPI call named by its path template, and the operation's trace context for the wire
 * (`params._meta` and headers). With the API absent, no tracer or meter registered and no
 * propagator, an operation pays two provider lookups and a propagator check, and builds no span,
 * attribute or carrier (its caller builds one small span plan).
 *
 * Nothing secret is written: no token, header value, query string, argument or result (the last
 * two only with `recordArguments`); `server.address` and `server.port` are the URL's host alone.
 */
import { hasSubscribers } from 'node:diagnostics_channel';
import type { Attributes, Histogram, Meter, Span, Tracer } from '@opentelemetry/api';
import { type Otel, otelApi, propagates } from '../binding/kernel/otel-api.js';
import { isRecord } from '../binding/kernel/type-guards.js';
import { REQUEST_ID } from '../machines/mcp-operation/mcp-operation.policy.js';
import type { TransitionObserver } from '../machines/observe.js';
import { failureClassOf, type WireTraceContext } from '../wire/index.js';
import {
  ATTR,
  EXECUTE_TOOL,
  INSTRUMENTATION_SCOPE,
  MCP_CLIENT_OPERATION_DURATION,
  OTHER_ERROR,
  TOOL_ERROR,
} from './telemetry-conventions.js';

/** The part of an OpenTelemetry `TracerProvider` the package uses. */
export interface TelemetryTracerProvider {
  getTracer(name: string, version?: string): unknown;
}

/** The part of an OpenTelemetry `MeterProvider` the package uses. */
export interface TelemetryMeterProvider {
  getMeter(name: string, version?: string): unknown;
}

/**
 * How a connection's operations are traced and measured. By default the host's global tracer and
 * meter providers are used (nothing is emitted until it registers one); `false` emits nothing,
 * even then.
 */
export interface ConnectionTelemetry {
  /** The tracer provider to use instead of the global one. */
  readonly tracerProvider?: TelemetryTracerProvider;
  /** The meter provider to use instead of the global one. */
  readonly meterProvider?: TelemetryMeterProvider;
  /**
   * When a `tools/call` runs under a span already (the AI SDK's `ai.toolCall`, a host's
   * `execute_tool`), add the MCP attributes and the transitions to that span instead of starting
   * one inside it, as the conventions ask. Default `false`.
   */
  readonly mergeIntoActiveSpan?: boolean;
  /**
   * Record a call's arguments and its result (`gen_ai.tool.call.arguments`, `.result`, JSON), which
   * the conventions mark opt-in: they may hold anything the model or the service wrote. Default
   * `false`.
   */
  readonly recordArguments?: boolean;
}

/** What an operation's span says of it, known before it runs. */
export type OperationSpanPlan =
  | {
      readonly kind: 'mcp';
      readonly method: 'tools/list' | 'tools/call' | 'tasks/get' | 'tasks/update' | 'tasks/cancel';
      /** The tool a `tools/call` names, as the server lists it. */
      readonly tool?: string;
      readonly arguments?: unknown;
      /** The server's URL; only its host and port are written. */
      readonly server: URL;
      /** The revision the call will speak, when the connection or discovery settled it. */
      readonly protocolVersion?: string;
    }
  | {
      readonly kind: 'openapi';
      /** The HTTP method, upper case. */
      readonly method: string;
      /** The operation's path template under its server, e.g. `/pets/{petId}`. */
      readonly template: string;
      readonly operationId: string | undefined;
      /** The mounted tool's name. */
      readonly tool: string;
      readonly arguments?: unknown;
      readonly server: URL;
    };

/** One operation's telemetry, from its start to its end. */
export interface OperationTelemetry {
  /** The trace context the operation's requests carry, when the host propagates any. */
  readonly trace: WireTraceContext | undefined;
  /** Adds each transition to the span as an event; absent without a span. */
  readonly observe: TransitionObserver | undefined;
  /** Runs the operation in the span's context and ends the span and the measure with it. */
  run<T>(operation: () => Promise<T>): Promise<T>;
}

/** The channel `@opentelemetry/instrumentation-undici` listens on; it writes its own headers. */
const UNDICI_REQUEST_CREATE = 'undici:request:create';

/**
 * The telemetry of one operation of connection `connection`, or `undefined` when there is nothing
 * to do: telemetry off, the API absent, or no tracer, meter or propagator registered.
 */
export function startOperationTelemetry(
  settings: ConnectionTelemetry | false | undefined,
  connection: string,
  plan: OperationSpanPlan,
  signal: AbortSignal | undefined,
): OperationTelemetry | undefined {
  if (settings === false) return undefined;
  const api = otelApi();
  if (api === undefined) return undefined;
  const tracer = tracerOf(api, settings?.tracerProvider);
  const histogram = plan.kind === 'mcp' ? histogramOf(api, settings?.meterProvider) : undefined;
  if (tracer === undefined && histogram === undefined && !propagates(api)) return undefined;
  const attributes = planAttributes(connection, plan, settings?.recordArguments === true);
  const parent = api.context.active();
  const outer =
    settings?.mergeIntoActiveSpan === true && plan.kind === 'mcp' && plan.method === 'tools/call'
      ? api.trace.getSpan(parent)
      : undefined;
  const merged = outer?.isRecording() === true ? outer : undefined;
  let span: Span | undefined;
  if (merged !== undefined) {
    merged.setAttributes(withoutGenAi(attributes));
    span = merged;
  } else if (tracer !== undefined) {
    span = tracer.startSpan(spanNameOf(plan), { kind: api.SpanKind.CLIENT, attributes }, parent);
  }
  const context =
    span === undefined || merged !== undefined ? parent : api.trace.setSpan(parent, span);
  const startedAt = performance.now();
  const end = (outcome: Outcome): void => {
    const closing = outcomeAttributes(plan, outcome, signal, settings?.recordArguments === true);
    if (span !== undefined) {
      span.setAttributes(
        merged === undefined ? closing.attributes : withoutGenAi(closing.attributes),
      );
      if (closing.status !== undefined) {
        span.setStatus({ code: api.SpanStatusCode.ERROR, message: closing.status });
      }
      if (merged === undefined) span.end();
    }
    histogram?.record(
      (performance.now() - startedAt) / 1000,
      metricAttributes(attributes, closing.attributes),
    );
  };
  return {
    trace: traceContextOf(api, context),
    observe: span === undefined ? undefined : transitionEvents(span),
    run: (operation) => {
      const running = merged === undefined ? api.context.with(context, operation) : operation();
      return running.then(
        (value) => {
          end({ ok: true, value });
          return value;
        },
        (error: unknown) => {
          end({ ok: false, error });
          throw error;
        },
      );
    },
  };
}

type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: unknown };

/** The tracer to use, or `undefined` when the provider is the global one and nobody registered it. */
function tracerOf(api: Otel, provider: TelemetryTracerProvider | undefined): Tracer | undefined {
  const chosen = provider ?? api.trace.getTracerProvider();
  // The global provider is a proxy; without a delegate every span it made would be dropped.
  if ('getDelegateTracer' in chosen && typeof chosen.getDelegateTracer === 'function') {
    return (chosen as { getDelegateTracer(name: string): Tracer | undefined }).getDelegateTracer(
      INSTRUMENTATION_SCOPE,
    );
  }
  return chosen.getTracer(INSTRUMENTATION_SCOPE) as Tracer;
}

/** Each meter provider's histogram, made once; `null` for the no-op provider. */
const histograms = new WeakMap<object, Histogram | null>();

function histogramOf(
  api: Otel,
  provider: TelemetryMeterProvider | undefined,
): Histogram | undefined {
  const chosen = provider ?? api.metrics.getMeterProvider();
  let histogram = histograms.get(chosen);
  if (histogram === undefined) {
    const meter = chosen.getMeter(INSTRUMENTATION_SCOPE) as Meter;
    histogram =
      meter === api.createNoopMeter()
        ? null
        : meter.createHistogram(MCP_CLIENT_OPERATION_DURATION.name, {
            unit: MCP_CLIENT_OPERATION_DURATION.unit,
            description: MCP_CLIENT_OPERATION_DURATION.description,
            advice: { explicitBucketBoundaries: [...MCP_CLIENT_OPERATION_DURATION.buckets] },
          });
    histograms.set(chosen, histogram);
  }
  return histogram ?? undefined;
}

/** `{mcp.method.name} {gen_ai.tool.name}`, the method alone, or `{METHOD} {url.template}`. */
function spanNameOf(plan: OperationSpanPlan): string {
  if (plan.kind === 'openapi') return `${plan.method} ${plan.template}`;
  return plan.tool === undefined ? plan.method : `${plan.method} ${plan.tool}`;
}

/** What a span carries from its start. */
function planAttributes(
  connection: string,
  plan: OperationSpanPlan,
  recordArguments: boolean,
): Attributes {
  const attributes: Attributes = {
    [ATTR.serverAddress]: hostOf(plan.server),
    [ATTR.serverPort]: portOf(plan.server),
    [ATTR.networkTransport]: 'tcp',
    [ATTR.networkProtocolName]: 'http',
    [ATTR.networkProtocolVersion]: '1.1',
    [ATTR.connection]: connection,
  };
  if (plan.kind === 'mcp') {
    attributes[ATTR.mcpMethodName] = plan.method;
    attributes[ATTR.jsonRpcRequestId] = String(REQUEST_ID);
    if (plan.protocolVersion !== undefined) {
      attributes[ATTR.mcpProtocolVersion] = plan.protocolVersion;
    }
  } else {
    attributes[ATTR.httpRequestMethod] = plan.method;
    attributes[ATTR.urlTemplate] = plan.template;
    if (plan.operationId !== undefined) attributes[ATTR.openApiOperationId] = plan.operationId;
  }
  const tool = plan.kind === 'openapi' || plan.method === 'tools/call' ? plan.tool : undefined;
  if (tool !== undefined) {
    attributes[ATTR.genAiToolName] = tool;
    attributes[ATTR.genAiOperationName] = EXECUTE_TOOL;
    if (recordArguments && plan.arguments !== undefined) {
      attributes[ATTR.genAiToolCallArguments] = JSON.stringify(plan.arguments);
    }
  }
  return attributes;
}

/** A URL's host as `server.address` wants it: an IPv6 literal without its brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** What the outcome adds: the attributes, and the status message of a failure. */
function outcomeAttributes(
  plan: OperationSpanPlan,
  outcome: Outcome,
  signal: AbortSignal | undefined,
  recordArguments: boolean,
): { readonly attributes: Attributes; readonly status?: string } {
  const attributes: Attributes = {};
  if (outcome.ok) {
    const value = outcome.value;
    if (plan.kind === 'mcp' && isRecord(value)) {
      if (typeof value.protocolVersion === 'string') {
        attributes[ATTR.mcpProtocolVersion] = value.protocolVersion;
      }
      if (typeof value.transport === 'string') attributes[ATTR.mcpWire] = value.transport;
      if (isRecord(value.result) && value.result.isError === true) {
        attributes[ATTR.errorType] = TOOL_ERROR;
        return { attributes, status: TOOL_ERROR };
      }
    }
    if (plan.kind === 'openapi' && isRecord(value) && typeof value.status === 'number') {
      attributes[ATTR.httpResponseStatusCode] = value.status;
    }
    if (recordArguments && isRecord(value)) {
      const result = plan.kind === 'mcp' ? value.result : value.value;
      if (plan.kind === 'openapi' || plan.method === 'tools/call') {
        attributes[ATTR.genAiToolCallResult] = JSON.stringify(result) ?? 'null';
      }
    }
    return { attributes };
  }
  const failure = failureOf(outcome.error, signal);
  attributes[ATTR.errorType] = failure.type;
  if (failure.rpcCode !== undefined) attributes[ATTR.rpcResponseStatusCode] = failure.rpcCode;
  if (failure.httpStatus !== undefined && plan.kind === 'openapi') {
    attributes[ATTR.httpResponseStatusCode] = failure.httpStatus;
  }
  return { attributes, status: failure.message };
}

/** The class of a failure (`error.type`), its JSON-RPC code or HTTP status, and a safe message. */
function failureOf(
  error: unknown,
  signal: AbortSignal | undefined,
): {
  readonly type: string;
  readonly message: string;
  readonly rpcCode?: string;
  readonly httpStatus?: number;
} {
  if (signal?.aborted === true && error === signal.reason) {
    return { type: 'cancelled', message: 'cancelled by the caller' };
  }
  const failure = failureClassOf(error);
  // Our typed errors' messages are written for hosts (no token, no query string); any other
  // error's message is not ours to vouch for.
  const message = failure.kind === 'other' ? OTHER_ERROR : (error as Error).message;
  switch (failure.kind) {
    case 'protocol': {
      if (failure.rpcCode === undefined) return { type: 'protocol_error', message };
      const code = String(failure.rpcCode);
      return { type: code, rpcCode: code, message: failure.rpcMessage ?? message };
    }
    case 'status':
      return { type: String(failure.status), httpStatus: failure.status, message };
    case 'unauthorized':
      return { type: '401', httpStatus: 401, message };
    case 'network':
      return { type: `network_${failure.failure}`, message };
    default:
      return { type: ERROR_TYPES[failure.kind], message };
  }
}

/** The `error.type` of each failure class without a code or status of its own. */
const ERROR_TYPES = {
  timeout: 'timeout',
  'too-large': 'response_too_large',
  url: 'url_refused',
  credential: 'credential_invalid',
  'input-required': 'input_required',
  other: OTHER_ERROR,
} as const;

/** The histogram's attributes: the span's low-cardinality ones (no connection, id or payload). */
function metricAttributes(start: Attributes, end: Attributes): Attributes {
  const attributes: Attributes = {};
  for (const source of [start, end]) {
    for (const key of METRIC_KEYS) {
      const value = source[key];
      if (value !== undefined) attributes[key] = value;
    }
  }
  return attributes;
}

const METRIC_KEYS = [
  ATTR.mcpMethodName,
  ATTR.genAiToolName,
  ATTR.genAiOperationName,
  ATTR.mcpProtocolVersion,
  ATTR.errorType,
  ATTR.rpcResponseStatusCode,
  ATTR.networkTransport,
  ATTR.networkProtocolName,
  ATTR.networkProtocolVersion,
  ATTR.serverAddress,
  ATTR.serverPort,
] as const;

/** An outer tool span keeps its own `gen_ai.*`: only the MCP, network and server ones are added. */
function withoutGenAi(attributes: Attributes): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (!key.startsWith('gen_ai.')) kept[key] = value;
  }
  return kept;
}

/**
 * Each transition as a span event: the state entered, the state left, the machine, elapsed ms,
 * and a task's id and status (each poll of a task is a `polling` event of `mcpTask`).
 */
function transitionEvents(span: Span): TransitionObserver {
  return (record) => {
    const attributes: Attributes = {
      [ATTR.machine]: record.machine,
      [ATTR.stateFrom]: record.from,
      [ATTR.elapsedMs]: Math.round(record.elapsedMs * 1000) / 1000,
    };
    if (record.task !== undefined) {
      attributes[ATTR.taskId] = record.task.id;
      attributes[ATTR.taskStatus] = record.task.status;
    }
    span.addEvent(record.to, attributes, record.at);
  };
}

/**
 * The trace context of `context` for the wire, as the host's propagator writes it; `undefined`
 * when it writes nothing. The HTTP headers are left to `@opentelemetry/instrumentation-undici`
 * when it is registered: it writes its own, naming its HTTP span, and a second `traceparent`
 * would make the request's trace ambiguous.
 */
function traceContextOf(
  api: Otel,
  context: ReturnType<Otel['context']['active']>,
): WireTraceContext | undefined {
  if (!propagates(api)) return undefined;
  const fields: Record<string, string> = {};
  api.propagation.inject(context, fields);
  if (Object.keys(fields).length === 0) return undefined;
  return { meta: fields, headers: hasSubscribers(UNDICI_REQUEST_CREATE) ? undefined : fields };
}
