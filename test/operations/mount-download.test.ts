import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFileBoundary, type FileBoundary } from '../../src/operations/file-boundary.js';
import { mountDownload } from '../../src/operations/mount-download.js';
import { type McpPeer, startMcpPeer } from '../support/binding-mcp-peer.js';
import { expectNoOpenSockets } from '../support/leaks.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

let root: string;
let files: FileBoundary;
let server: LoopbackServer;
let peer: McpPeer | undefined;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'stitchkit-mount-download-'));
  files = createFileBoundary({ root });
  server = await startLoopbackServer((req, res) => {
    if (req.url === '/img.png') res.writeHead(200, { 'content-type': 'image/png' }).end('abc');
    else res.writeHead(503).end();
  });
});
afterEach(async () => {
  await peer?.stop();
  peer = undefined;
  await server.close();
  await rm(root, { recursive: true, force: true });
});
afterAll(expectNoOpenSockets);

async function mount(options: {
  allowPrivateHosts?: boolean;
  resolveUrl?: (name: string) => unknown;
}) {
  peer = await startMcpPeer((mcp) =>
    mountDownload(mcp, {
      description: 'Downloads a file',
      inputSchema: { name: z.string() },
      files,
      allowPrivateHosts: options.allowPrivateHosts ?? true,
      resolveUrl: (args) =>
        (options.resolveUrl ?? ((name) => `${server.origin}/${name}`))(args.name),
    }),
  );
  return (name: string) => peer?.client.callTool({ name: 'download', arguments: { name } });
}

describe('mountDownload (raw MCP adapter)', () => {
  it('answers the file reference as pretty JSON with no isError key', async () => {
    const call = await mount({});
    const result = await call('img.png');
    const reference = { path: 'img.png', size: 3, mediaType: 'image/png' };
    expect(result).toEqual({
      content: [{ type: 'text', text: JSON.stringify(reference, null, 2) }],
    });
    expect(result !== undefined && 'isError' in result).toBe(false);
    expect(await readdir(root)).toEqual(['img.png']);
  });

  it('answers Nothing to download. for a null URL', async () => {
    const call = await mount({ resolveUrl: () => null });
    expect(await call('x')).toEqual({
      content: [{ type: 'text', text: 'Nothing to download.' }],
      isError: true,
    });
    expect(server.requests).toEqual([]);
  });

  it('answers Download failed [CODE]: message for an HTTP error and a refused host', async () => {
    let call = await mount({});
    expect(await call('down')).toEqual({
      content: [{ type: 'text', text: 'Download failed [DOWNLOAD_HTTP_ERROR]: HTTP 503' }],
      isError: true,
    });
    await peer?.stop();
    call = await mount({ allowPrivateHosts: false });
    expect(await call('img.png')).toEqual({
      content: [
        {
          type: 'text',
          text: 'Download failed [DOWNLOAD_HOST_REFUSED]: The download address is not allowed',
        },
      ],
      isError: true,
    });
    expect(await readdir(root)).toEqual([]);
  });

  it('scrubs an unknown error: its text never reaches the client', async () => {
    const call = await mount({
      resolveUrl: () => {
        throw new Error('db password is hunter2');
      },
    });
    expect(await call('x')).toEqual({
      content: [
        { type: 'text', text: 'Download failed [INTERNAL_SERVER_ERROR]: Internal server error' },
      ],
      isError: true,
    });
  });
});
