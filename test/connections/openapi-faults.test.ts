/**
 * OpenAPI faults over real loopback HTTP: redirects refused (spec load and call) with zero hits
 * on the target, a remote spec pointing at a foreign server, a hung spec URL, oversized spec and
 * response, YAML, CR/LF in a header value, and path values that try to leave their segment.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runTool, toolCauseFromResult } from '../../src/binding/index.js';
import {
  ConnectionProtocolError,
  ConnectionResponseTooLargeError,
  ConnectionTimeoutError,
  ConnectionUrlError,
  defineOpenApiConnection,
  mountConnections,
} from '../../src/connections/index.js';
import {
  type FaultHandler,
  type FaultServer,
  reply,
  startFaultServer,
} from '../fixtures/fault-server.js';
import {
  activeResourceCounts,
  expectNoLeakedResources,
  trackUnhandledRejections,
} from '../support/leaks.js';

const doc = (servers: unknown[], paths: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  servers,
  paths: {
    '/files/{name}': {
      get: {
        operationId: 'getFile',
        parameters: [
          { name: 'name', in: 'path', required: true },
          { name: 'X-Note', in: 'header' },
        ],
      },
    },
    ...paths,
  },
});

let server: FaultServer;
let target: FaultServer;
let baseline: ReturnType<typeof activeResourceCounts>;
const unhandled = trackUnhandledRejections();
let handler: FaultHandler;

beforeAll(async () => {
  baseline = activeResourceCounts();
  server = await startFaultServer((request, self) => handler(request, self));
  target = await startFaultServer(() => reply.json(200, { stolen: true }));
});
beforeEach(() => {
  handler = (request) =>
    request.path === '/openapi.json'
      ? reply.json(200, doc([{ url: '/api' }]))
      : reply.json(200, { path: request.path });
});
afterAll(async () => {
  await server.close();
  await target.close();
  await expectNoLeakedResources(baseline);
  expect(unhandled).toEqual([]);
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

function remote(extra: Partial<Parameters<typeof defineOpenApiConnection>[0]> = {}) {
  return defineOpenApiConnection({
    name: 'remote',
    spec: `${server.origin}/openapi.json`,
    ...extra,
  });
}

async function getFile() {
  const [tool] = await mountConnections([remote()]);
  if (tool === undefined) throw new Error('nothing mounted');
  return tool;
}

describe('OpenAPI faults', () => {
  it('refuses a 302 on the spec load; the redirect target gets no request', async () => {
    handler = () => reply.redirect(302, `${target.origin}/openapi.json`);
    const error = await rejection(mountConnections([remote()]));
    expect(error).toBeInstanceOf(ConnectionUrlError);
    expect((error as ConnectionUrlError).operation).toBe('openapi/spec');
    expect((error as Error).message).toContain('refused a redirect (status 302)');
    expect(target.count()).toBe(0);
  });

  it('refuses a 307 on a call; the redirect target gets no request', async () => {
    const tool = await getFile();
    handler = () => reply.redirect(307, `${target.origin}/steal`);
    const result = await runTool(tool, { name: 'a' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect((toolCauseFromResult(result) as ConnectionUrlError).operation).toBe('openapi/call');
    expect(target.count()).toBe(0);
  });

  it('refuses at mount a remote spec whose server is another host, until allowHosts or baseUrl', async () => {
    const foreign = `http://localhost:${target.port}/api`;
    handler = () => reply.json(200, doc([{ url: foreign }]));
    const error = await rejection(mountConnections([remote()]));
    expect(error).toBeInstanceOf(ConnectionUrlError);
    expect((error as Error).message).toContain(`server host "localhost:${target.port}"`);
    expect(
      await mountConnections([remote({ allowHosts: [`localhost:${target.port}`] })]),
    ).toHaveLength(1);
    expect(await mountConnections([remote({ baseUrl: `${server.origin}/api` })])).toHaveLength(1);
    expect(target.count()).toBe(0);
  });

  it('resolves a relative server against the spec URL', async () => {
    const tool = await getFile();
    await runTool(tool, { name: 'report.pdf' }, { source: 'agent' });
    expect(server.requests.at(-1)?.path).toBe('/api/files/report.pdf');
  });

  it('times out a hung spec URL under the discovery deadline', async () => {
    handler = () => reply.hang({ afterHeaders: true });
    const error = await rejection(
      mountConnections([remote({ limits: { discovery: { timeoutMs: 300 } } })]),
    );
    expect(error).toBeInstanceOf(ConnectionTimeoutError);
    expect(error).toMatchObject({ operation: 'openapi/spec', phase: 'discovery', timeoutMs: 300 });
  });

  it('refuses an oversized spec and an oversized response with the size error', async () => {
    const big = JSON.stringify({ ...doc([{ url: '/api' }]), padding: 'x'.repeat(5_000) });
    handler = () => reply.raw(200, { 'content-type': 'application/json' }, [big]);
    const error = await rejection(mountConnections([remote({ maxResponseBytes: 4_096 })]));
    expect(error).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(error).toMatchObject({ operation: 'openapi/spec', maxBytes: 4_096 });

    handler = (request) =>
      request.path === '/openapi.json'
        ? reply.json(200, doc([{ url: '/api' }]))
        : reply.raw(200, { 'content-type': 'application/json' }, ['[', '1,'.repeat(3_000), '1]']);
    const [tool] = await mountConnections([
      remote({ limits: { call: { maxResponseBytes: 1_024 } } }),
    ]);
    if (tool === undefined) throw new Error('nothing mounted');
    const result = await runTool(tool, { name: 'a' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_RESPONSE_TOO_LARGE' });
    expect(toolCauseFromResult(result)).toMatchObject({
      operation: 'openapi/call',
      maxBytes: 1_024,
    });
  });

  it('refuses a YAML document, saying JSON is required', async () => {
    handler = () =>
      reply.raw(200, { 'content-type': 'application/yaml' }, [
        'openapi: 3.0.3\ninfo:\n  title: t\n',
      ]);
    const error = await rejection(mountConnections([remote()]));
    expect(error).toBeInstanceOf(ConnectionProtocolError);
    expect((error as Error).message).toBe(
      'Connection "remote" served an OpenAPI document in YAML; JSON is required',
    );
  });

  it('refuses a 2xx JSON answer whose body is not JSON', async () => {
    const tool = await getFile();
    handler = () => reply.raw(200, { 'content-type': 'application/json' }, ['{not json']);
    const result = await runTool(tool, { name: 'a' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'CONNECTION_PROTOCOL_ERROR' });
  });

  it('decodes a non-JSON answer as text', async () => {
    const tool = await getFile();
    handler = () => reply.raw(200, { 'content-type': 'text/plain' }, ['plain words']);
    const result = await runTool(tool, { name: 'a' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: true, data: 'plain words' });
  });

  it('refuses CR/LF in a header value before any request is sent', async () => {
    const tool = await getFile();
    const before = server.count();
    const result = await runTool(
      tool,
      { name: 'a', 'X-Note': 'x\r\nInjected: yes' },
      { source: 'agent' },
    );
    expect(result).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect(server.count()).toBe(before);
  });

  it('keeps path values inside their segment on the wire', async () => {
    const tool = await getFile();
    const paths: string[] = [];
    for (const name of ['../admin', '%2F', '?x=', 'a/../../b']) {
      await runTool(tool, { name }, { source: 'agent' });
      const seen = server.requests.at(-1);
      paths.push(`${seen?.path}${seen?.search}`);
    }
    expect(paths).toEqual([
      '/api/files/..%2Fadmin',
      '/api/files/%252F',
      '/api/files/%3Fx%3D',
      '/api/files/a%2F..%2F..%2Fb',
    ]);
  });
});
