import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AnyRuntimeToolDefinition,
  mountAgent,
  mountMcp,
  runTool,
  toolCauseFromResult,
  toolErrorFromResult,
} from '../../src/binding/index.js';
import type { TransitionRecord } from '../../src/machines/observe.js';
import {
  type DownloadToolConfig,
  defineDownloadTool,
} from '../../src/operations/define-download-tool.js';
import { createFileBoundary, type FileBoundary } from '../../src/operations/file-boundary.js';
import { modelCalling, run } from '../support/agent-model.js';
import { type McpPeer, startMcpPeer } from '../support/binding-mcp-peer.js';
import { expectNoOpenSockets } from '../support/leaks.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

const Input = z.object({ name: z.string() });

let roots: string[] = [];
let server: LoopbackServer;
let peer: McpPeer | undefined;
/** Called when `/stall` has written its first chunk. */
const stalled: () => void = () => {};

beforeEach(async () => {
  server = await startLoopbackServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/files/cat.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '3' }).end('PNG');
    } else if (path === '/missing') res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
    else if (path === '/declared-big') {
      res.writeHead(200, { 'content-length': '5000' });
      res.write(Buffer.alloc(100));
    } else if (path === '/chunked-big') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(600));
      res.end(Buffer.alloc(600));
    } else if (path === '/stall') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first', () => stalled());
    } else if (path === '/hang') {
      // Never answers: only the header deadline ends the wait.
    } else res.writeHead(500).end();
  });
});
afterEach(async () => {
  await peer?.stop();
  peer = undefined;
  await server.close();
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
  roots = [];
});
afterAll(expectNoOpenSockets);

async function boundary(): Promise<FileBoundary> {
  const root = await mkdtemp(join(tmpdir(), 'stitchkit-download-'));
  roots.push(root);
  return createFileBoundary({ root });
}

async function listing(files: FileBoundary): Promise<string[]> {
  return (await readdir(files.root, { recursive: true })).map(String).sort();
}

function downloadTool(
  files: FileBoundary,
  extra: Partial<DownloadToolConfig<typeof Input>> = {},
): AnyRuntimeToolDefinition {
  return defineDownloadTool({
    description: 'Downloads a named file',
    identity: { serviceName: 'files', action: 'download' },
    input: Input,
    files,
    resolveUrl: (input) => `${server.origin}/${input.name}`,
    allowPrivateHosts: true,
    ...extra,
  }) as AnyRuntimeToolDefinition;
}

describe('defineDownloadTool', () => {
  it('is a POST tool named download whose output is the file reference', async () => {
    const definition = downloadTool(await boundary());
    expect(definition.name).toBe('download');
    expect(definition.identity).toEqual({
      serviceName: 'files',
      action: 'download',
      method: 'POST',
    });
  });

  it('refuses limits outside their range at definition time, naming the option', async () => {
    const files = await boundary();
    expect(() => downloadTool(files, { timeoutMs: 0 })).toThrow(/^timeoutMs must be/);
    expect(() => downloadTool(files, { bodyTimeoutMs: 2 ** 31 })).toThrow(/^bodyTimeoutMs must/);
    expect(() => downloadTool(files, { maxBytes: -1 })).toThrow(/^maxBytes must/);
  });

  it('returns identical data on MCP (real SDK client) and Agent (generateText)', async () => {
    const mcpFiles = await boundary();
    peer = await startMcpPeer((mcp) => mountMcp(mcp, [downloadTool(mcpFiles)]));
    const viaMcp = await peer.client.callTool({
      name: 'download',
      arguments: { name: 'files/cat.png' },
    });
    const agentFiles = await boundary();
    const tools = mountAgent({ runtimeTools: [downloadTool(agentFiles)] });
    const viaAgent = await run(modelCalling('download', { name: 'files/cat.png' }), tools);

    const expected = { path: 'cat.png', size: 3, mediaType: 'image/png' };
    expect(viaMcp.structuredContent).toEqual(expected);
    expect(viaMcp.isError).toBeFalsy();
    expect(viaAgent.steps[0]?.toolResults.map((result) => result.output)).toEqual([expected]);
    for (const files of [mcpFiles, agentFiles]) {
      expect(await readFile(join(files.root, 'cat.png'), 'utf8')).toBe('PNG');
      expect(await listing(files)).toEqual(['cat.png']);
    }
    expect(server.requests.map((request) => request.path)).toEqual([
      '/files/cat.png',
      '/files/cat.png',
    ]);
  });

  it('makes zero requests and zero files when beforeHandle refuses, on MCP and Agent', async () => {
    const files = await boundary();
    const definition = downloadTool(files);
    const lifecycle = {
      beforeHandle: () => {
        throw new Error('not allowed');
      },
    };
    peer = await startMcpPeer((mcp) => mountMcp(mcp, [definition], { lifecycle }));
    const viaMcp = await peer.client.callTool({ name: 'download', arguments: { name: 'x.png' } });
    expect(viaMcp.isError).toBe(true);
    const tools = mountAgent({ runtimeTools: [definition], lifecycle });
    const viaAgent = await run(modelCalling('download', { name: 'x.png' }), tools);
    expect(viaAgent.steps[0]?.content.some((part) => part.type === 'tool-error')).toBe(true);
    expect(server.requests).toEqual([]);
    expect(await listing(files)).toEqual([]);
  });

  it('answers DOWNLOAD_NOT_FOUND (404) when resolveUrl returns null, with no request', async () => {
    const definition = downloadTool(await boundary(), { resolveUrl: () => null });
    const result = await runTool(definition, { name: 'x' }, { source: 'internal' });
    expect(result).toMatchObject({ ok: false, code: 'DOWNLOAD_NOT_FOUND' });
    expect(toolErrorFromResult(result)?.status).toBe(404);
    expect(server.requests).toEqual([]);
  });

  it('answers DOWNLOAD_HTTP_ERROR (502) for a non-2xx answer and writes nothing', async () => {
    const files = await boundary();
    const result = await runTool(downloadTool(files), { name: 'missing' }, { source: 'internal' });
    expect(result).toMatchObject({
      ok: false,
      code: 'DOWNLOAD_HTTP_ERROR',
      details: { message: 'HTTP 404', upstreamStatus: 404 },
    });
    expect(toolErrorFromResult(result)?.status).toBe(502);
    expect(await listing(files)).toEqual([]);
  });

  it('refuses a loopback URL without allowPrivateHosts: no request, no file, no address echoed', async () => {
    const files = await boundary();
    const definition = downloadTool(files, { allowPrivateHosts: false });
    const result = await runTool(definition, { name: 'files/cat.png' }, { source: 'agent' });
    expect(result).toMatchObject({ ok: false, code: 'DOWNLOAD_HOST_REFUSED' });
    expect(toolErrorFromResult(result)?.status).toBe(403);
    expect(JSON.stringify(result)).not.toContain('127.0.0.1');
    expect(server.requests).toEqual([]);
    expect(await listing(files)).toEqual([]);
  });

  it('names the file from pathFromInput, adding the extension the content type gives', async () => {
    const files = await boundary();
    const definition = downloadTool(files, { pathFromInput: () => 'album/kitty' });
    const result = await runTool(definition, { name: 'files/cat.png' }, { source: 'internal' });
    expect(result).toEqual({
      ok: true,
      data: { path: 'album/kitty.png', size: 3, mediaType: 'image/png' },
    });
  });

  it('refuses an escaping pathFromInput before any request', async () => {
    const files = await boundary();
    const definition = downloadTool(files, { pathFromInput: () => '../escape.png' });
    const result = await runTool(definition, { name: 'files/cat.png' }, { source: 'internal' });
    expect(result).toMatchObject({ ok: false, code: 'FILE_INVALID_PATH' });
    expect(server.requests).toEqual([]);
  });

  it('refuses an existing file by default (FILE_EXISTS) and replaces it when told', async () => {
    const files = await boundary();
    await writeFile(join(files.root, 'cat.png'), 'old');
    const refused = await runTool(
      downloadTool(files),
      { name: 'files/cat.png' },
      { source: 'internal' },
    );
    expect(refused).toMatchObject({ ok: false, code: 'FILE_EXISTS' });
    expect(await readFile(join(files.root, 'cat.png'), 'utf8')).toBe('old');
    const replaced = await runTool(
      downloadTool(files, { ifExists: 'replace' }),
      { name: 'files/cat.png' },
      { source: 'internal' },
    );
    expect(replaced.ok).toBe(true);
    expect(await readFile(join(files.root, 'cat.png'), 'utf8')).toBe('PNG');
    expect(await listing(files)).toEqual(['cat.png']);
  });

  it('reports progress as bytes arrive, ending with the whole size', async () => {
    const reports: unknown[][] = [];
    const result = await runTool(
      downloadTool(await boundary()),
      { name: 'files/cat.png' },
      { source: 'internal', reportProgress: (...args) => void reports.push(args) },
    );
    expect(result.ok).toBe(true);
    expect(reports).toEqual([[3, 3, '3 of 3 bytes']]);
  });
});

describe('defineDownloadTool: bounds, deadlines and cancellation', () => {
  it('refuses a declared length over the cap without reading the body', async () => {
    const files = await boundary();
    const result = await runTool(
      downloadTool(files, { maxBytes: 1_000 }),
      { name: 'declared-big' },
      { source: 'internal' },
    );
    expect(result).toMatchObject({
      ok: false,
      code: 'DOWNLOAD_TOO_LARGE',
      details: { maxBytes: 1_000 },
    });
    expect(toolErrorFromResult(result)?.status).toBe(413);
    expect(await listing(files)).toEqual([]);
  });

  it('holds the cap on a body with no length, leaving no partial file', async () => {
    const files = await boundary();
    const result = await runTool(
      downloadTool(files, { maxBytes: 1_000 }),
      { name: 'chunked-big' },
      { source: 'internal' },
    );
    expect(result).toMatchObject({ ok: false, code: 'DOWNLOAD_TOO_LARGE' });
    expect(await listing(files)).toEqual([]);
  });

  it('aborts the fetch on cancellation mid-body and leaves no partial file', async () => {
    const files = await boundary();
    const controller = new AbortController();
    const reason = new Error('caller cancelled');
    const reports: number[] = [];
    const result = await runTool(
      downloadTool(files),
      { name: 'stall' },
      {
        source: 'agent',
        signal: controller.signal,
        reportProgress: (received) => {
          reports.push(received);
          controller.abort(reason);
        },
      },
    );
    expect(result).toMatchObject({ ok: false, code: 'CANCELLED' });
    expect(toolCauseFromResult(result)).toBe(reason);
    expect(reports).toEqual([5]);
    await server.requests[0]?.closed;
    expect(await listing(files)).toEqual([]);
  });

  it('ends a slow body at the body deadline, leaving no partial file', async () => {
    const files = await boundary();
    const records: TransitionRecord[] = [];
    const startedAt = Date.now();
    const result = await runTool(
      downloadTool(files, { bodyTimeoutMs: 300, observe: (record) => records.push(record) }),
      { name: 'stall' },
      { source: 'internal' },
    );
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(result).toMatchObject({
      ok: false,
      code: 'DOWNLOAD_TIMEOUT',
      details: { message: 'The download body did not arrive within 300 ms' },
    });
    expect(records.map((record) => record.to)).toEqual([
      'resolving',
      'transferring.awaitingHeaders',
      'transferring.receivingBody',
      'closed',
    ]);
    expect(records.at(-1)?.event).toBe(
      'xstate.after.BODY_DEADLINE.download.transferring.receivingBody',
    );
    await server.requests[0]?.closed;
    expect(await listing(files)).toEqual([]);
  });

  it('ends a hung server at the header deadline', async () => {
    const files = await boundary();
    const records: TransitionRecord[] = [];
    const result = await runTool(
      downloadTool(files, { timeoutMs: 300, observe: (record) => records.push(record) }),
      { name: 'hang' },
      { source: 'internal' },
    );
    expect(result).toMatchObject({
      ok: false,
      code: 'DOWNLOAD_TIMEOUT',
      details: { message: 'The download response headers did not arrive within 300 ms' },
    });
    expect(records.map((record) => record.to)).toEqual([
      'resolving',
      'transferring.awaitingHeaders',
      'closed',
    ]);
    await server.requests[0]?.closed;
    expect(await listing(files)).toEqual([]);
  });
});

describe('defineDownloadTool: a server that lies about Content-Length', () => {
  let liar: Server;
  let origin: string;
  const sockets = new Set<Socket>();

  beforeEach(async () => {
    liar = createServer((socket) => {
      sockets.add(socket);
      socket.once('data', () => {
        // Declares 50 bytes, sends 5 000 and closes: the framing, not the claim, bounds the file.
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 50\r\nContent-Type: text/plain\r\n\r\n');
        socket.end(Buffer.alloc(5_000, 97));
      });
    });
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    const address = liar.address() as { port: number };
    origin = `http://127.0.0.1:${address.port}`;
  });
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => liar.close(() => resolve()));
  });

  it('writes at most the declared bytes, under the cap', async () => {
    const files = await boundary();
    const result = await runTool(
      downloadTool(files, { maxBytes: 1_000, resolveUrl: () => `${origin}/lie` }),
      { name: 'x' },
      { source: 'internal' },
    );
    expect(result).toEqual({
      ok: true,
      data: { path: 'lie.txt', size: 50, mediaType: 'text/plain' },
    });
    expect((await readFile(join(files.root, 'lie.txt'))).byteLength).toBe(50);
  });
});
