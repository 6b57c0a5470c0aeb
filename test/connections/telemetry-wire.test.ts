/**
 * What OpenTelemetry sees of failures and of the wire, against fault servers on loopback that
 * record every request: the `error.type` of a 401 and of a JSON-RPC error, the operation's trace
 * context in each request's `_meta` and headers, an OpenAPI call's client span, the opt-ins
 * (`mergeIntoActiveSpan`, `recordArguments`, a provider of the connection's own, `telemetry: false`),
 * and no planted secret in anything exported.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { type AnyRuntimeToolDefinition, runTool } from '../../src/binding/index.js';
import { type ConnectionTelemetry, mountConnections } from '../../src/connections/index.js';
import { type FaultServer, mcp, mcpHandler, reply } from '../fixtures/fault-server.js';
import { mountedPetstoreTool, petstoreHandler } from '../fixtures/petstore.js';
import { connect, useFaultServers } from '../support/fault-suite.js';
import { type SpanRecord, sentMeta, useOtel } from '../support/otel.js';

const { start } = useFaultServers();
const otel = useOtel();

async function echoOn(
  server: FaultServer,
  telemetry?: ConnectionTelemetry | false,
): Promise<AnyRuntimeToolDefinition> {
  const [echo] = await mountConnections([
    connect(server, telemetry === undefined ? {} : { telemetry }),
  ]);
  return echo as AnyRuntimeToolDefinition;
}

function callSpans(name = 'tools/call echo'): SpanRecord[] {
  return otel.spans().filter((span) => span.name === name);
}

/** The W3C `traceparent` naming `span`. */
const traceparentOf = (span: SpanRecord) => `00-${span.traceId}-${span.spanId}-01`;

describe('a failed MCP call', () => {
  it('of a 401 says 401; of a JSON-RPC error, its code and the server message', async () => {
    const server = await start(
      mcpHandler({
        'tools/call': reply.status(401, 'no', {
          'www-authenticate': 'Bearer resource_metadata="https://auth.example/meta"',
        }),
      }),
    );
    const echo = await echoOn(server);
    expect(await runTool(echo, { message: 'x' }, { source: 'agent' })).toMatchObject({ ok: false });
    const [unauthorized] = callSpans();
    expect(unauthorized?.attributes['error.type']).toBe('401');
    expect(unauthorized?.attributes['rpc.response.status_code']).toBeUndefined();
    expect(unauthorized?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'Connection "faulty" requires authorization',
    });

    server.setHandler(
      mcpHandler({
        'tools/call': (request) => mcp.error(request.rpc?.id ?? null, -32602, 'bad message'),
      }),
    );
    expect(await runTool(echo, { message: 'x' }, { source: 'agent' })).toMatchObject({ ok: false });
    const refused = callSpans()[1];
    expect(refused?.attributes['error.type']).toBe('-32602');
    expect(refused?.attributes['rpc.response.status_code']).toBe('-32602');
    expect(refused?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'bad message' });
  });
});

describe('the trace context on the wire', () => {
  it("is the call span's, in every request's headers and in the _meta of its requests", async () => {
    const server = await start(mcpHandler());
    const echo = await echoOn(server);
    const from = server.requests.length;
    await runTool(echo, { message: 'x' }, { source: 'agent' });
    const [call] = callSpans();
    if (call === undefined) throw new Error('no call span');
    const sent = server.requests.slice(from);
    expect(
      sent.map((request) => [request.rpc?.method ?? request.method, request.headers.traceparent]),
    ).toEqual([
      ['initialize', traceparentOf(call)],
      ['notifications/initialized', traceparentOf(call)],
      ['tools/call', traceparentOf(call)],
    ]);
    const metas = sent.map((request) => sentMeta(request));
    expect(metas).toEqual([
      { traceparent: traceparentOf(call) },
      undefined,
      { traceparent: traceparentOf(call) },
    ]);
  });

  it('carries the caller baggage and trace state along', async () => {
    const server = await start(mcpHandler());
    const echo = await echoOn(server);
    const from = server.requests.length;
    const baggage = propagation.createBaggage({ tenant: { value: 'acme' } });
    await context.with(propagation.setBaggage(context.active(), baggage), () =>
      runTool(echo, { message: 'x' }, { source: 'agent' }),
    );
    const call = server.requests
      .slice(from)
      .find((request) => request.rpc?.method === 'tools/call');
    expect(call?.headers.baggage).toBe('tenant=acme');
    expect(sentMeta(call)?.baggage).toBe('tenant=acme');
  });
});

describe('an OpenAPI call span', () => {
  it('is a CLIENT span named by method and path template, with the operation and the status', async () => {
    const server = await start(petstoreHandler());
    const show = await mountedPetstoreTool(server.origin);
    const from = server.requests.length;
    expect(await runTool(show, { petId: '1' }, { source: 'agent' })).toMatchObject({ ok: true });
    expect(await runTool(show, { petId: '9' }, { source: 'agent' })).toMatchObject({ ok: false });
    const [found, missing] = otel.spans().filter((span) => span.name === 'GET /v1/pets/{petId}');
    if (found === undefined || missing === undefined) throw new Error('no OpenAPI spans');
    expect(found.kind).toBe(SpanKind.CLIENT);
    expect(found.attributes).toEqual({
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(server.origin).port),
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'network.protocol.version': '1.1',
      'stitchkit.connection': 'pets',
      'http.request.method': 'GET',
      'url.template': '/v1/pets/{petId}',
      'stitchkit.openapi.operation_id': 'showPetById',
      'gen_ai.tool.name': 'pets__showPetById',
      'gen_ai.operation.name': 'execute_tool',
      'http.response.status_code': 200,
    });
    expect(found.events.map((event) => event.name)).toEqual(['requesting', 'closed']);
    expect(missing.attributes['error.type']).toBe('404');
    expect(missing.attributes['http.response.status_code']).toBe(404);
    expect(missing.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'Connection "pets" request failed with status 404',
    });
    expect(server.requests.slice(from).map((request) => request.headers.traceparent)).toEqual([
      traceparentOf(found),
      traceparentOf(missing),
    ]);
  });
});

describe('the options', () => {
  it('mergeIntoActiveSpan adds the MCP attributes and events to the tool span the call runs in', async () => {
    const server = await start(mcpHandler());
    const echo = await echoOn(server, { mergeIntoActiveSpan: true });
    await trace.getTracer('host').startActiveSpan('execute_tool echo', async (span) => {
      span.setAttribute('gen_ai.tool.name', 'host_echo');
      await runTool(echo, { message: 'x' }, { source: 'agent' });
      span.end();
    });
    expect(callSpans()).toEqual([]);
    const [outer] = otel.spans().filter((span) => span.name === 'execute_tool echo');
    expect(outer?.attributes).toMatchObject({
      'gen_ai.tool.name': 'host_echo',
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': '2025-11-25',
      'jsonrpc.request.id': '2',
      'stitchkit.mcp.wire': 'streamable-http',
    });
    expect(outer?.attributes['gen_ai.operation.name']).toBeUndefined();
    expect(outer?.events.map((event) => event.name)).toEqual([
      'session.initializing',
      'session.notifying',
      'session.requesting.waiting',
      'closed',
    ]);
  });

  it('recordArguments records the arguments and the result, and only then', async () => {
    const server = await start(mcpHandler());
    const echo = await echoOn(server, { recordArguments: true });
    await runTool(echo, { message: 'x' }, { source: 'agent' });
    const [call] = callSpans();
    expect(call?.attributes['gen_ai.tool.call.arguments']).toBe('{"message":"x"}');
    expect(call?.attributes['gen_ai.tool.call.result']).toBe(
      '{"content":[{"type":"text","text":"Echo: x"}]}',
    );
  });

  it("a connection's own tracer provider takes its spans; false emits none and sends no context", async () => {
    const exporter = new InMemorySpanExporter();
    const own = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const server = await start(mcpHandler());
    const mine = await echoOn(server, { tracerProvider: own });
    await runTool(mine, { message: 'x' }, { source: 'agent' });
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual([
      'tools/list',
      'tools/call echo',
    ]);
    expect(otel.spans()).toEqual([]);

    const silent = await echoOn(server, false);
    const from = server.requests.length;
    await runTool(silent, { message: 'x' }, { source: 'agent' });
    expect(otel.spans()).toEqual([]);
    expect(server.requests.slice(from).map((request) => request.headers.traceparent)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    await own.shutdown();
  });
});

describe('secrets', () => {
  it('appear in no exported span, event, status or data point', async () => {
    const server = await start(mcpHandler());
    const [echo] = await mountConnections([
      connect(server, {
        token: () => 'tok-SECRET-1',
        transport: {
          url: `${server.url}?key=qry-SECRET-2`,
          headers: { 'x-api-key': 'hdr-SECRET-3' },
          protocolVersion: '2025-11-25',
        },
      }),
    ]);
    await runTool(
      echo as AnyRuntimeToolDefinition,
      { message: 'arg-SECRET-4' },
      { source: 'agent' },
    );
    server.setHandler(mcpHandler({ 'tools/call': reply.status(500, 'body-SECRET-5') }));
    await runTool(
      echo as AnyRuntimeToolDefinition,
      { message: 'arg-SECRET-4' },
      { source: 'agent' },
    );
    const exported = JSON.stringify([
      otel.spans(),
      await otel.histogram('mcp.client.operation.duration'),
    ]);
    expect(callSpans()).toHaveLength(2);
    expect(exported.match(/SECRET-\d/g)).toBeNull();
    // What reached the server did carry them: the test planted them where they travel.
    expect(JSON.stringify(server.requests)).toContain('tok-SECRET-1');
  });
});
