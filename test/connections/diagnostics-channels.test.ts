/**
 * The diagnostics channels: a subscriber to `stitchkit-transport:operation` sees `start`, `end`,
 * `asyncStart` and `asyncEnd` (or `error`, with our typed error) around every connection
 * operation with its connection, operation and phase; one to `stitchkit-transport:transition`
 * sees the same records an `observe` hook gets. Real server on loopback.
 */
import { channel, tracingChannel } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { runTool } from '../../src/binding/index.js';
import {
  ConnectionRequestError,
  DIAGNOSTICS_CHANNELS,
  type TransitionRecord,
} from '../../src/connections/index.js';
import { mcpHandler, reply } from '../fixtures/fault-server.js';
import { mountEcho, useFaultServers } from '../support/fault-suite.js';

const { start } = useFaultServers();
const unsubscribers: (() => void)[] = [];
afterEach(() => {
  for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
});

function traceOperations() {
  const events: string[] = [];
  const errors: unknown[] = [];
  const handlers = {
    start: (context: { operation: string; connection: string; phase: string }) =>
      events.push(`start ${context.connection} ${context.operation} ${context.phase}`),
    end: (context: { operation: string }) => events.push(`end ${context.operation}`),
    asyncStart: (context: { operation: string }) => events.push(`asyncStart ${context.operation}`),
    asyncEnd: (context: { operation: string; error?: unknown }) =>
      events.push(`asyncEnd ${context.operation}${context.error === undefined ? '' : ' (failed)'}`),
    error: (context: { operation: string; error: unknown }) => {
      events.push(`error ${context.operation}`);
      errors.push(context.error);
    },
  };
  const traced = tracingChannel(DIAGNOSTICS_CHANNELS.operation);
  traced.subscribe(handlers as never);
  unsubscribers.push(() => traced.unsubscribe(handlers as never));
  return { events, errors };
}

describe('the diagnostics channels', () => {
  it('trace every operation, a failure with its typed error', async () => {
    const server = await start(mcpHandler());
    const { events, errors } = traceOperations();
    const echo = await mountEcho(server);
    expect(events).toEqual([
      'start faulty tools/list discovery',
      'end tools/list',
      'asyncStart tools/list',
      'asyncEnd tools/list',
    ]);
    events.length = 0;
    server.setHandler(mcpHandler({ 'tools/call': reply.status(500, 'boom') }));
    const result = await runTool(echo, { message: 'x' }, { source: 'agent' });
    expect(result.ok).toBe(false);
    expect(events).toEqual([
      'start faulty tools/call call',
      'end tools/call',
      'error tools/call',
      'asyncStart tools/call',
      'asyncEnd tools/call (failed)',
    ]);
    expect(errors).toHaveLength(1);
    expect(ConnectionRequestError.isInstance(errors[0])).toBe(true);
  });

  it('publish every transition, exactly the records an observe hook gets', async () => {
    const server = await start(mcpHandler());
    const published: TransitionRecord[] = [];
    const observed: TransitionRecord[] = [];
    const onTransition = (record: unknown) => published.push(record as TransitionRecord);
    channel(DIAGNOSTICS_CHANNELS.transition).subscribe(onTransition);
    unsubscribers.push(() => channel(DIAGNOSTICS_CHANNELS.transition).unsubscribe(onTransition));
    const echo = await mountEcho(server, { observe: (record) => observed.push(record) });
    await runTool(echo, { message: 'x' }, { source: 'agent' });
    expect(published).toEqual(observed);
    expect(published.map((record) => record.to).at(-1)).toBe('closed');
    expect(new Set(published.map((record) => record.operation))).toEqual(
      new Set(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']),
    );
  });
});
