/**
 * Telemetry when the host registered nothing: the `@opentelemetry/api` is installed, but no tracer
 * provider, meter provider or propagator is, so an operation starts no span, builds nothing for one,
 * and sends no trace context. Registering only a propagator (and a context manager) passes the caller's context on without
 * a span. (Without the API installed at all: `test/structure/commonjs-consumer.test.ts`.)
 */
import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnyRuntimeToolDefinition, runTool } from '../../src/binding/index.js';
import { mountConnections } from '../../src/connections/index.js';
import { startOperationTelemetry } from '../../src/connections/telemetry.js';
import { mcpHandler } from '../fixtures/fault-server.js';
import { connect, useFaultServers } from '../support/fault-suite.js';
import { sentMeta } from '../support/otel.js';

const { start } = useFaultServers();
afterEach(() => {
  propagation.disable();
  context.disable();
});

const PLAN = {
  kind: 'mcp',
  method: 'tools/call',
  tool: 'echo',
  server: new URL('http://127.0.0.1:1/mcp'),
} as const;

describe('with nothing registered', () => {
  it('an operation has no telemetry at all', () => {
    expect(startOperationTelemetry(undefined, 'faulty', PLAN, undefined)).toBeUndefined();
    expect(startOperationTelemetry(false, 'faulty', PLAN, undefined)).toBeUndefined();
  });

  it('a call sends no trace context', async () => {
    const server = await start(mcpHandler());
    const [echo] = await mountConnections([connect(server)]);
    const from = server.requests.length;
    await runTool(echo as AnyRuntimeToolDefinition, { message: 'x' }, { source: 'agent' });
    const sent = server.requests.slice(from);
    expect(sent.map((request) => request.headers.traceparent)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const call = sent.find((request) => request.rpc?.method === 'tools/call');
    expect(sentMeta(call)).toBeUndefined();
  });
});

describe('with a propagator and a context manager alone', () => {
  it("passes the caller's trace context on, and starts no span", async () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const server = await start(mcpHandler());
    const [echo] = await mountConnections([connect(server)]);
    const from = server.requests.length;
    const caller = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 1,
      isRemote: true,
    });
    expect(startOperationTelemetry(undefined, 'faulty', PLAN, undefined)?.observe).toBeUndefined();
    await context.with(caller, () =>
      runTool(echo as AnyRuntimeToolDefinition, { message: 'x' }, { source: 'agent' }),
    );
    const call = server.requests
      .slice(from)
      .find((request) => request.rpc?.method === 'tools/call');
    expect(call?.headers.traceparent).toBe(
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    );
  });
});
