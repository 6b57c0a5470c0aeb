import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AnyRuntimeToolDefinition,
  AppError,
  mountAgent,
  mountMcp,
  runTool,
} from '../../src/binding/index.js';
import {
  defineUploadTool,
  type UploadToolConfig,
} from '../../src/operations/define-upload-tool.js';
import { createFileBoundary, type FileBoundary } from '../../src/operations/file-boundary.js';
import { mountUpload } from '../../src/operations/mount-upload.js';
import { modelCalling, run } from '../support/agent-model.js';
import { type McpPeer, startMcpPeer } from '../support/binding-mcp-peer.js';
import { expectNoOpenSockets } from '../support/leaks.js';

const Receipt = z.object({ uploaded: z.string(), bytes: z.number(), text: z.string() });

let base: string;
let files: FileBoundary;
let peer: McpPeer | undefined;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'stitchkit-upload-'));
  await writeFile(join(base, 'outside.txt'), 'secret');
  const root = join(base, 'root');
  await mkdir(root);
  await writeFile(join(root, 'report.txt'), 'quarterly');
  await symlink(join(base, 'outside.txt'), join(root, 'escape.txt'));
  files = createFileBoundary({ root });
});
afterEach(async () => {
  await peer?.stop();
  peer = undefined;
  await rm(base, { recursive: true, force: true });
});
afterAll(expectNoOpenSockets);

interface Seen {
  source: unknown;
  aborted: boolean;
  hasSignal: boolean;
}

function uploadTool(seen: Seen[], extra: Partial<UploadToolConfig<typeof Receipt>> = {}) {
  return defineUploadTool({
    description: 'Uploads a file to the archive',
    identity: { serviceName: 'archive', action: 'upload' },
    files,
    output: Receipt,
    upload: async (file, ctx) => {
      seen.push({
        source: ctx.source,
        aborted: ctx.signal.aborted,
        hasSignal: ctx.signal instanceof AbortSignal,
      });
      return {
        uploaded: file.path,
        bytes: file.size,
        text: await new Response(file.stream).text(),
      };
    },
    ...extra,
  }) as AnyRuntimeToolDefinition;
}

describe('defineUploadTool', () => {
  it('is a POST tool named upload whose input is a path', () => {
    const definition = uploadTool([]);
    expect(definition.name).toBe('upload');
    expect(definition.identity.method).toBe('POST');
    expect(Object.keys((definition.input as z.ZodObject).shape)).toEqual(['path']);
  });

  it('returns identical data on MCP and Agent; the callback sees ctx.source and a live signal', async () => {
    const seen: Seen[] = [];
    peer = await startMcpPeer((mcp) => mountMcp(mcp, [uploadTool(seen)]));
    const viaMcp = await peer.client.callTool({
      name: 'upload',
      arguments: { path: 'report.txt' },
    });
    const tools = mountAgent({ runtimeTools: [uploadTool(seen)] });
    const viaAgent = await run(modelCalling('upload', { path: 'report.txt' }), tools);
    const expected = { uploaded: 'report.txt', bytes: 9, text: 'quarterly' };
    expect(viaMcp.structuredContent).toEqual(expected);
    expect(viaAgent.steps[0]?.toolResults.map((result) => result.output)).toEqual([expected]);
    expect(seen).toEqual([
      { source: 'mcp', aborted: false, hasSignal: true },
      { source: 'agent', aborted: false, hasSignal: true },
    ]);
  });

  it('hands the callback an abortable signal: cancelling the call aborts it with the reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stop uploading');
    let observed: unknown;
    const definition = uploadTool([], {
      upload: (_file, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            observed = ctx.signal.reason;
            reject(ctx.signal.reason);
          });
          controller.abort(reason);
        }),
    });
    const result = await runTool(
      definition,
      { path: 'report.txt' },
      { source: 'agent', signal: controller.signal },
    );
    expect(result).toMatchObject({ ok: false, code: 'CANCELLED' });
    expect(observed).toBe(reason);
  });

  it.each([
    ['../outside.txt', 'FILE_INVALID_PATH'],
    ['/etc/passwd', 'FILE_INVALID_PATH'],
    ['escape.txt', 'FILE_OUTSIDE_ROOT'],
    ['missing.txt', 'FILE_NOT_FOUND'],
  ])('refuses %s with %s without calling upload', async (path, code) => {
    const seen: Seen[] = [];
    const result = await runTool(uploadTool(seen), { path }, { source: 'internal' });
    expect(result).toMatchObject({ ok: false, code });
    expect(seen).toEqual([]);
  });

  it('passes the callback AppError through and validates the output', async () => {
    const refusing = uploadTool([], {
      upload: () => {
        throw new AppError('ARCHIVE_FULL', { message: 'The archive is full', status: 507 });
      },
    });
    expect(await runTool(refusing, { path: 'report.txt' }, { source: 'internal' })).toMatchObject({
      ok: false,
      code: 'ARCHIVE_FULL',
    });
    const wrong = uploadTool([], { upload: () => ({ uploaded: 1 }) as never });
    expect(await runTool(wrong, { path: 'report.txt' }, { source: 'internal' })).toMatchObject({
      ok: false,
      code: 'INTERNAL_SERVER_ERROR',
    });
  });

  it('opens no file and calls nothing when beforeHandle refuses', async () => {
    const seen: Seen[] = [];
    const result = await runTool(
      uploadTool(seen),
      { path: 'report.txt' },
      {
        source: 'internal',
        lifecycle: {
          beforeHandle: () => {
            throw new AppError('FORBIDDEN', { status: 403 });
          },
        },
      },
    );
    expect(result).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(seen).toEqual([]);
  });
});

describe('mountUpload (raw MCP adapter)', () => {
  async function call(path: string, upload: (file: { path: string; size: number }) => unknown) {
    peer = await startMcpPeer((mcp) =>
      mountUpload(mcp, { description: 'Uploads a file', files, upload: (file) => upload(file) }),
    );
    return peer.client.callTool({ name: 'upload', arguments: { path } });
  }

  it('answers the result as pretty JSON with no isError key', async () => {
    const result = await call('report.txt', (file) => ({ id: 'u-1', size: file.size }));
    expect(result).toEqual({
      content: [{ type: 'text', text: JSON.stringify({ id: 'u-1', size: 9 }, null, 2) }],
    });
  });

  it('answers null for a callback that returns nothing', async () => {
    expect(await call('report.txt', () => undefined)).toEqual({
      content: [{ type: 'text', text: 'null' }],
    });
  });

  it('answers Provide `path`. for an empty path', async () => {
    expect(await call('', () => 'never')).toEqual({
      content: [{ type: 'text', text: 'Provide `path`.' }],
      isError: true,
    });
  });

  it('answers Upload failed [CODE]: message for a refusal, and scrubs an unknown error', async () => {
    expect(await call('escape.txt', () => 'never')).toEqual({
      content: [
        {
          type: 'text',
          text: 'Upload failed [FILE_OUTSIDE_ROOT]: The path leads outside the file area',
        },
      ],
      isError: true,
    });
    await peer?.stop();
    expect(
      await call('report.txt', () => {
        throw new Error('token=abc123');
      }),
    ).toEqual({
      content: [
        { type: 'text', text: 'Upload failed [INTERNAL_SERVER_ERROR]: Internal server error' },
      ],
      isError: true,
    });
  });
});
