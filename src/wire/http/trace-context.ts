/**
 * The trace context an operation carries on the wire (decision 0032): the W3C `traceparent`,
 * `tracestate` and `baggage` of the operation's span, as the host's propagator wrote them. The
 * connection layer builds it; the machines only copy it into what they send.
 */

/** The trace context fields of one operation, for its requests. */
export interface WireTraceContext {
  /** Written into the `params._meta` of every MCP request the operation sends. */
  readonly meta: Readonly<Record<string, string>>;
  /**
   * Written into the headers of every HTTP request the operation sends; absent when an HTTP
   * instrumentation (the host's `@opentelemetry/instrumentation-undici`) writes its own.
   */
  readonly headers: Readonly<Record<string, string>> | undefined;
}

/** Writes the trace context's headers into `headers`, when it has any. */
export function writeTraceHeaders(
  headers: Record<string, string>,
  trace: WireTraceContext | undefined,
): void {
  if (trace?.headers !== undefined) Object.assign(headers, trace.headers);
}

/** Writes the trace context's fields into a request's `_meta`, when there is one. */
export function writeTraceMeta(
  meta: Record<string, unknown>,
  trace: WireTraceContext | undefined,
): void {
  if (trace !== undefined) Object.assign(meta, trace.meta);
}
