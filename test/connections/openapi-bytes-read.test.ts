/**
 * How an OpenAPI call counts what it reads (decision 0016): a body that has ended by the time its
 * bytes would be reported reaches the chart with its answer and sends no `BYTES_READ`; a body that
 * comes over several turns of the event loop is reported as it comes. Either way every byte is
 * counted once in the errors that quote the count.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import {
  ConnectionProtocolError,
  ConnectionRequestError,
  defineOpenApiConnection,
  mountConnections,
} from '../../src/connections/index.js';
import {
  type FaultHandler,
  type FaultServer,
  reply,
  startFaultServer,
} from '../fixtures/fault-server.js';

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/files/{name}': {
      get: { operationId: 'getFile', parameters: [{ name: 'name', in: 'path', required: true }] },
    },
  },
};

let server: FaultServer;
let handler: FaultHandler = () => reply.json(200, {});

beforeAll(async () => {
  server = await startFaultServer((request, self) => handler(request, self));
});
afterAll(async () => {
  await server.close();
});

/**
 * The `getFile` tool, and the running total after every `BYTES_READ` its calls' machines received
 * (each event brings the bytes read since the last one).
 */
async function getFile() {
  const totals: number[] = [];
  let total = 0;
  const inspect = (inspection: InspectionEvent): void => {
    if (inspection.type !== '@xstate.event') return;
    const event = inspection.event as { type: string; bytes?: number };
    if (event.type !== 'BYTES_READ') return;
    total += event.bytes ?? Number.NaN;
    totals.push(total);
  };
  const [tool] = await mountConnections([
    defineOpenApiConnection({ name: 'files', spec: DOCUMENT, baseUrl: server.origin, inspect }),
  ]);
  if (tool === undefined) throw new Error('nothing mounted');
  return { tool, totals };
}

describe('an OpenAPI answer that arrives whole', () => {
  it('sends no BYTES_READ', async () => {
    handler = () => reply.json(200, { name: 'a', size: 3 });
    const { tool, totals } = await getFile();
    const result = await runTool(tool, { name: 'a' }, { source: 'agent' });
    expect(result).toEqual({ ok: true, data: { name: 'a', size: 3 } });
    expect(totals).toEqual([]);
  });

  it('is still counted where a refusal quotes the bytes read', async () => {
    handler = () => reply.status(500, 'database down');
    const { tool, totals } = await getFile();
    const cause = toolCauseFromResult(await runTool(tool, { name: 'a' }, { source: 'agent' }));
    expect(cause).toBeInstanceOf(ConnectionRequestError);
    expect(cause).toMatchObject({ status: 500, body: 'database down', observedReadBytes: 13 });
    expect(totals).toEqual([]);
  });

  it('is still counted where a malformed answer quotes the bytes read', async () => {
    handler = () => reply.status(200, '{"name":', { 'content-type': 'application/json' });
    const { tool, totals } = await getFile();
    const cause = toolCauseFromResult(await runTool(tool, { name: 'a' }, { source: 'agent' }));
    expect(cause).toBeInstanceOf(ConnectionProtocolError);
    expect(cause).toMatchObject({ operation: 'openapi/call', observedReadBytes: 8 });
    expect(totals).toEqual([]);
  });
});

describe('an OpenAPI answer that arrives in pieces', () => {
  it('reports the first piece as it comes and counts the whole body once', async () => {
    handler = () =>
      reply.raw(500, { 'content-type': 'text/plain' }, ['database ', 'down'], {
        chunkDelayMs: 50,
      });
    const { tool, totals } = await getFile();
    const cause = toolCauseFromResult(await runTool(tool, { name: 'a' }, { source: 'agent' }));
    expect(cause).toMatchObject({ status: 500, body: 'database down', observedReadBytes: 13 });
    // The first piece waited 50 ms for the next, so it was reported alone; the last one was
    // reported too or counted from the answer, depending on whether the body's end came with it.
    expect([[9], [9, 13]]).toContainEqual(totals);
  });
});
