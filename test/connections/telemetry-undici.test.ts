/**
 * Beside `@opentelemetry/instrumentation-undici`, as a host registers it: it sees every request the
 * package sends (each one's HTTP span is a child of the operation's span), nothing is counted
 * twice (one HTTP span and one `http.client.request.duration` point per request, the operation
 * span names no HTTP hop), and the HTTP headers carry its `traceparent` alone while the MCP
 * `_meta` carries the operation span's.
 */
import { metrics } from '@opentelemetry/api';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyRuntimeToolDefinition, runTool } from '../../src/binding/index.js';
import { mountConnections } from '../../src/connections/index.js';
import { mcpHandler } from '../fixtures/fault-server.js';
import { mountedPetstoreTool, petstoreHandler } from '../fixtures/petstore.js';
import { connect, useFaultServers } from '../support/fault-suite.js';
import { type SpanRecord, sentMeta, useOtel } from '../support/otel.js';

const { start } = useFaultServers();
const otel = useOtel();
let instrumentation: UndiciInstrumentation;
beforeAll(() => {
  instrumentation = new UndiciInstrumentation();
  instrumentation.setMeterProvider(metrics.getMeterProvider());
});
afterAll(() => {
  instrumentation.disable();
});

const traceparentOf = (span: SpanRecord) => `00-${span.traceId}-${span.spanId}-01`;

describe('with the undici instrumentation registered', () => {
  it('an OpenAPI call has one HTTP span, the child of its operation span, counted once', async () => {
    const server = await start(petstoreHandler());
    const show = await mountedPetstoreTool(server.origin);
    const before = await otel.histogram('http.client.request.duration');
    const from = server.requests.length;
    otel.reset();
    expect(await runTool(show, { petId: '1' }, { source: 'agent' })).toMatchObject({ ok: true });
    const spans = otel.spans();
    expect(spans.map((span) => span.name)).toEqual(['GET', 'GET /v1/pets/{petId}']);
    const [http, operation] = spans as [SpanRecord, SpanRecord];
    expect(http.parentSpanId).toBe(operation.spanId);
    expect(http.traceId).toBe(operation.traceId);
    expect(http.attributes['url.full']).toBe(`${server.origin}/v1/pets/1`);
    expect(server.requests.slice(from).map((request) => request.headers.traceparent)).toEqual([
      traceparentOf(http),
    ]);
    const after = await otel.histogram('http.client.request.duration');
    expect(countOf(after) - countOf(before)).toBe(1);
    expect(await otel.histogram('mcp.client.operation.duration')).toEqual([]);
  });

  it("an MCP call's requests are HTTP children of its span; _meta names the MCP span", async () => {
    const server = await start(mcpHandler());
    const [echo] = await mountConnections([connect(server)]);
    const from = server.requests.length;
    otel.reset();
    await runTool(echo as AnyRuntimeToolDefinition, { message: 'x' }, { source: 'agent' });
    const spans = otel.spans();
    expect(spans.map((span) => span.name)).toEqual(['POST', 'POST', 'POST', 'tools/call echo']);
    const call = spans[3] as SpanRecord;
    const http = spans.slice(0, 3);
    expect(http.map((span) => span.parentSpanId)).toEqual([call.spanId, call.spanId, call.spanId]);
    const sent = server.requests.slice(from);
    expect(sent.map((request) => request.headers.traceparent)).toEqual(http.map(traceparentOf));
    const callRequest = sent.find((request) => request.rpc?.method === 'tools/call');
    expect(sentMeta(callRequest)).toEqual({
      traceparent: traceparentOf(call),
    });
  });
});

function countOf(points: readonly { count: number }[]): number {
  return points.reduce((total, point) => total + point.count, 0);
}
