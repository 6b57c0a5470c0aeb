/**
 * OpenTelemetry spans and the MCP operation histogram, exported to memory: one `mcp.client` span
 * per MCP operation (the SDK's own servers on loopback, and a fault server for the failures) with
 * the conventions' attributes and the machine's transitions as events, one client span per OpenAPI
 * call named by its path template, the operation's trace context in each request's `_meta` and
 * headers, the opt-ins, and no planted secret anywhere in what is exported.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { type AnyRuntimeToolDefinition, mountAgent, runTool } from '../../src/binding/index.js';
import {
  type ConnectionTelemetry,
  defineMcpClientConnection,
  mountConnections,
} from '../../src/connections/index.js';
import { modelCalling } from '../support/agent-model.js';
import { type SpanRecord, useOtel } from '../support/otel.js';
import { useMcpPeers } from '../support/peer-suite.js';

const peers = useMcpPeers();
const otel = useOtel();

const PORT = () => Number(new URL(peers.origin).port);

async function peerTool(
  name: string,
  path: '/stateful' | '/legacy-only' = '/stateful',
  telemetry?: ConnectionTelemetry | false,
): Promise<AnyRuntimeToolDefinition> {
  const tools = await mountConnections([
    defineMcpClientConnection({
      name: 'peer',
      transport: { url: peers.url(path), protocolVersion: '2025-11-25' },
      ...(telemetry === undefined ? {} : { telemetry }),
    }),
  ]);
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`${name} not mounted`);
  return tool;
}

/** The spans named `name`. */
function spansNamed(name: string): SpanRecord[] {
  return otel.spans().filter((span) => span.name === name);
}

function only(name: string): SpanRecord {
  const found = spansNamed(name);
  expect(found).toHaveLength(1);
  return found[0] as SpanRecord;
}

/** The attributes every MCP span to the peers carries. */
const peerAttributes = () => ({
  'server.address': '127.0.0.1',
  'server.port': PORT(),
  'network.transport': 'tcp',
  'network.protocol.name': 'http',
  'network.protocol.version': '1.1',
  'stitchkit.connection': 'peer',
  'jsonrpc.request.id': '2',
  'mcp.protocol.version': '2025-11-25',
});

describe('an MCP operation span', () => {
  it('is one CLIENT span per operation, named by method and tool, its transitions as events', async () => {
    const echo = await peerTool('echo');
    const listing = only('tools/list');
    expect(listing.kind).toBe(SpanKind.CLIENT);
    expect(listing.attributes).toEqual({
      ...peerAttributes(),
      'mcp.method.name': 'tools/list',
      'stitchkit.mcp.wire': 'streamable-http',
    });
    expect(await runTool(echo, { message: 'hi' }, { source: 'agent' })).toMatchObject({ ok: true });
    const call = only('tools/call echo');
    expect(call.kind).toBe(SpanKind.CLIENT);
    expect(call.attributes).toEqual({
      ...peerAttributes(),
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'stitchkit.mcp.wire': 'streamable-http',
    });
    expect(call.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(call.events.map((event) => event.name)).toEqual([
      'session.initializing',
      'session.notifying',
      'session.requesting.waiting',
      'endingSession',
      'closed',
    ]);
    // State names, the machine and elapsed ms only.
    expect(call.events[1]?.attributes).toEqual({
      'stitchkit.machine': 'mcpOperation',
      'stitchkit.state.from': 'session.initializing',
      'stitchkit.elapsed_ms': expect.any(Number),
    });
    // Separate traces: the discovery and the call each started at the root.
    expect(listing.parentSpanId).toBeUndefined();
    expect(call.traceId).not.toBe(listing.traceId);
  });

  it('records each operation in the mcp.client.operation.duration histogram, by outcome', async () => {
    const before = await otel.histogram('mcp.client.operation.duration');
    const echo = await peerTool('echo');
    const fail = await peerTool('fail');
    await runTool(echo, { message: 'hi' }, { source: 'agent' });
    await runTool(echo, { message: 'again' }, { source: 'agent' });
    await runTool(fail, {}, { source: 'agent' });
    const common = {
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'network.protocol.version': '1.1',
      'server.address': '127.0.0.1',
      'server.port': PORT(),
    };
    const points = (await otel.histogram('mcp.client.operation.duration')).map((point) => {
      const earlier = before.find(
        (old) => JSON.stringify(old.attributes) === JSON.stringify(point.attributes),
      );
      return { ...point, count: point.count - (earlier?.count ?? 0) };
    });
    const tool = { 'gen_ai.operation.name': 'execute_tool', 'mcp.method.name': 'tools/call' };
    expect(
      points
        .filter((point) => point.count > 0)
        .map(({ attributes, count }) => ({ attributes, count })),
    ).toEqual([
      { attributes: { 'mcp.method.name': 'tools/list', ...common }, count: 2 },
      { attributes: { ...tool, 'gen_ai.tool.name': 'echo', ...common }, count: 2 },
      {
        attributes: { ...tool, 'gen_ai.tool.name': 'fail', ...common, 'error.type': 'tool_error' },
        count: 1,
      },
    ]);
    expect(points[0]?.boundaries).toEqual([
      0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
    ]);
    // Seconds, not ms: a loopback call takes well under one.
    for (const point of points) expect(point.sum / Math.max(point.count, 1)).toBeLessThan(1);
  });

  it('is the child of the span the call runs under', async () => {
    const echo = await peerTool('echo');
    await trace.getTracer('test').startActiveSpan('outer', async (outer) => {
      await runTool(echo, { message: 'hi' }, { source: 'agent' });
      outer.end();
    });
    const outer = only('outer');
    const call = only('tools/call echo');
    expect(call.traceId).toBe(outer.traceId);
    expect(call.parentSpanId).toBe(outer.spanId);
  });

  it('on legacy HTTP+SSE says so, and its events walk the legacy wire', async () => {
    const echo = await peerTool('echo', '/legacy-only');
    expect(await runTool(echo, { message: 'hi' }, { source: 'agent' })).toMatchObject({ ok: true });
    const call = only('tools/call echo');
    expect(call.attributes['stitchkit.mcp.wire']).toBe('sse');
    expect(call.events.map((event) => event.name)).toEqual([
      'session.initializing',
      'sse.connecting',
      'sse.initializing',
      'sse.notifying',
      'sse.requesting.waiting',
      'closed',
    ]);
  });

  it('of an isError result says tool_error', async () => {
    const fail = await peerTool('fail');
    expect(await runTool(fail, {}, { source: 'agent' })).toMatchObject({ ok: false });
    const call = only('tools/call fail');
    expect(call.attributes['error.type']).toBe('tool_error');
    expect(call.status).toEqual({ code: SpanStatusCode.ERROR, message: 'tool_error' });
  });

  it('of a deadline says timeout, and its events end through the cancellation notice', async () => {
    const tools = await mountConnections([
      defineMcpClientConnection({
        name: 'peer',
        transport: { url: peers.url('/stateful'), protocolVersion: '2025-11-25' },
        limits: { call: { timeoutMs: 300 } },
      }),
    ]);
    const slow = tools.find((tool) => tool.name === 'slow') as AnyRuntimeToolDefinition;
    expect(await runTool(slow, { ms: 5_000 }, { source: 'agent' })).toMatchObject({ ok: false });
    const call = only('tools/call slow');
    expect(call.attributes['error.type']).toBe('timeout');
    expect(call.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'Connection "peer" timed out after 300 ms',
    });
    expect(call.events.map((event) => event.name)).toEqual([
      'session.initializing',
      'session.notifying',
      'session.requesting.waiting',
      'cancellingRequest',
      'endingSession',
      'closed',
    ]);
  });

  it('of a caller cancellation says cancelled', async () => {
    const slow = await peerTool('slow');
    const controller = new AbortController();
    const running = runTool(slow, { ms: 5_000 }, { source: 'agent', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user stopped')), 200);
    expect(await running).toMatchObject({ ok: false });
    const call = only('tools/call slow');
    expect(call.attributes['error.type']).toBe('cancelled');
    expect(call.status).toEqual({ code: SpanStatusCode.ERROR, message: 'cancelled by the caller' });
  });

  it("merges into the AI SDK's ai.toolCall span when asked, instead of nesting one", async () => {
    const echo = await peerTool('echo', '/stateful', { mergeIntoActiveSpan: true });
    const model = modelCalling('echo', { message: 'hi' });
    await generateText({
      model,
      tools: mountAgent({ runtimeTools: [echo] }),
      prompt: 'go',
      stopWhen: stepCountIs(2),
      experimental_telemetry: { isEnabled: true },
    });
    expect(spansNamed('tools/call echo')).toEqual([]);
    const toolCall = only('ai.toolCall');
    expect(toolCall.attributes).toMatchObject({
      'ai.toolCall.name': 'echo',
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': '2025-11-25',
      'server.port': PORT(),
    });
    expect(toolCall.events.map((event) => event.name)).toEqual([
      'session.initializing',
      'session.notifying',
      'session.requesting.waiting',
      'endingSession',
      'closed',
    ]);
  });
});
