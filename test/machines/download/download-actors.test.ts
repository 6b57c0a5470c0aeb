/**
 * The download machine with its real actors (`makeDownloadActors`) over the wire's guarded fetch
 * against a loopback server: what the caller gets back, the progress it is told, the cap enforced
 * while streaming, and the refusal of a machine run without its actors.
 */
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import {
  type DownloadActorDependencies,
  type DownloadWriteOptions,
  makeDownloadActors,
} from '../../../src/machines/download/download.actors.js';
import { downloadMachine } from '../../../src/machines/download/download.machine.js';
import type { DownloadedFile } from '../../../src/machines/download/download.types.js';
import { runMachine } from '../../../src/machines/run-machine.js';
import { DownloadError } from '../../../src/wire/download/download-error.js';
import { fetchForDownload } from '../../../src/wire/download/download-fetch.js';
import type { NodeBody } from '../../../src/wire/read/abortable-read.js';
import { serveEachTest } from '../../support/loopback-server.js';

const serve = serveEachTest();
const PNG = Buffer.alloc(300, 7);

/** A writer that keeps the bytes in memory and refuses past the cap, as the file boundary does. */
function memoryWriter() {
  const written: { path: string; bytes: number }[] = [];
  const write = async (
    path: string,
    body: NodeBody,
    options: DownloadWriteOptions,
  ): Promise<DownloadedFile> => {
    let total = 0;
    for await (const chunk of body) {
      total += chunk.byteLength;
      options.onBytes(total);
      if (total > options.maxBytes) throw new RangeError('over the cap');
    }
    written.push({ path, bytes: total });
    return { path, size: total, mediaType: options.mediaType };
  };
  return { written, write };
}

function actors(overrides: Partial<DownloadActorDependencies> & { url: string }) {
  const { url, ...rest } = overrides;
  const progress: [number, number | null][] = [];
  const writer = memoryWriter();
  const machine = downloadMachine.provide({
    actors: makeDownloadActors({
      resolveUrl: () => url,
      fetch: (target, signal) => fetchForDownload(target, { signal, allowPrivateHosts: true }),
      write: writer.write,
      onBytes: (received, declared) => progress.push([received, declared]),
      ...rest,
    }),
  });
  return { machine, progress, written: writer.written };
}

describe('download machine with its real actors', () => {
  it('writes the body under the URL base name with the declared type and reports its bytes', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png; charset=binary', 'content-length': '300' });
      res.end(PNG);
    });
    // No extension in the URL: the name takes the content type's.
    const { machine, progress, written } = actors({ url: `${server.origin}/files/cat` });
    const result = await runMachine(machine, { maxBytes: 1_000 });
    expect(result.file).toEqual({ path: 'cat.png', size: 300, mediaType: 'image/png' });
    expect(written).toEqual([{ path: 'cat.png', bytes: 300 }]);
    expect(progress.at(-1)).toEqual([300, 300]);
  });

  it('ends in DOWNLOAD_TOO_LARGE, with the writer refusal as cause, when an undeclared body crosses the cap', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    });
    const { machine, progress } = actors({ url: `${server.origin}/files/cat.png` });
    const error = await runMachine(machine, { maxBytes: 100 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DownloadError);
    expect(error).toMatchObject({ code: 'DOWNLOAD_TOO_LARGE', maxBytes: 100 });
    expect((error as Error).cause).toBeInstanceOf(RangeError);
    expect(progress.at(-1)?.[1]).toBeNull();
  });

  it('passes on a writer failure that is not about size as it is, even at exactly the cap', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '300' });
      res.end(PNG);
    });
    const refusal = new Error('disk full');
    const { machine } = actors({
      url: `${server.origin}/files/cat.png`,
      write: async (_path, body, options) => {
        let total = 0;
        for await (const chunk of body) {
          total += chunk.byteLength;
          options.onBytes(total);
        }
        throw refusal;
      },
    });
    await expect(runMachine(machine, { maxBytes: 300 })).rejects.toBe(refusal);
  });

  it('refuses a declared length over the cap before writing anything', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '300' });
      res.end(PNG);
    });
    const { machine, written } = actors({ url: `${server.origin}/files/cat.png` });
    const error = await runMachine(machine, { maxBytes: 100 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'DOWNLOAD_TOO_LARGE', maxBytes: 100 });
    expect(written).toEqual([]);
  });

  it('ends with the fetch failure itself, not a deadline, when the server is gone', async () => {
    const server = await serve(() => {});
    const url = `${server.origin}/files/cat.png`;
    await server.close();
    const { machine } = actors({ url });
    const error = await runMachine(machine, { maxBytes: 1_000, headerTimeoutMs: 60_000 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).code).toBe('DOWNLOAD_FAILED');
  });

  it('aborts the write and releases the response when the caller cancels mid-body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG);
    });
    const controller = new AbortController();
    const seen: { aborted: boolean }[] = [];
    const work: Promise<unknown>[] = [];
    const { machine } = actors({
      url: `${server.origin}/files/cat.png`,
      track: (promise) => work.push(promise),
      write: async (_path, body, options) => {
        const seenSignal = { aborted: false };
        seen.push(seenSignal);
        options.signal.addEventListener('abort', () => {
          seenSignal.aborted = true;
        });
        for await (const chunk of body) {
          options.onBytes(chunk.byteLength);
          controller.abort('stop');
        }
        throw new Error('unreachable: the body never ends');
      },
    });
    await expect(
      runMachine(machine, { maxBytes: 1_000 }, { signal: controller.signal }),
    ).rejects.toBe('stop');
    await Promise.allSettled(work);
    expect(seen).toEqual([{ aborted: true }]);
    expect(work).toHaveLength(2);
    await server.requests[0]?.closed;
  });
});

describe('download machine without its actors', () => {
  it('fails and says which actors to provide', async () => {
    await expect(runMachine(downloadMachine, {})).rejects.toThrow(
      'The download machine needs its actors: provide makeDownloadActors(deps)',
    );
  });

  it('fails the same way when only the transfer actor is missing', async () => {
    const machine = downloadMachine.provide({
      actors: {
        resolveUrl: fromPromise<unknown, void>(async () => 'https://files.example/cat.png'),
      },
    });
    await expect(runMachine(machine, {})).rejects.toThrow(
      'The download machine needs its actors: provide makeDownloadActors(deps)',
    );
  });
});
