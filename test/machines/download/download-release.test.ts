/**
 * The download's connection is released, whatever way the transfer ends: after the file is
 * written, when the chart refuses the head before any write, when the caller stops it mid-body,
 * and when the head lands only after the caller stopped it (a fetch that ignores the signal).
 * A connection never released is a socket held until the process ends.
 */
import { describe, expect, it } from 'vitest';
import {
  type DownloadActorDependencies,
  makeDownloadActors,
} from '../../../src/machines/download/download.actors.js';
import { downloadMachine } from '../../../src/machines/download/download.machine.js';
import { runMachine } from '../../../src/machines/run-machine.js';
import {
  type DownloadResponse,
  fetchForDownload,
} from '../../../src/wire/download/download-fetch.js';
import { liveSignal, serveEachTest } from '../../support/loopback-server.js';

const serve = serveEachTest();
const PNG = Buffer.alloc(300, 7);

/** The real download fetch, counting each release of the response it gave. */
function countedFetch(options: { ignoreSignal: boolean }) {
  const released: string[] = [];
  const fetch: DownloadActorDependencies['fetch'] = async (target, signal) => {
    const answer = await fetchForDownload(target, {
      signal: options.ignoreSignal ? liveSignal() : signal,
      allowPrivateHosts: true,
    });
    const counted: DownloadResponse = {
      status: answer.status,
      ok: answer.ok,
      headers: answer.headers,
      body: answer.body,
      url: answer.url,
      redirects: answer.redirects,
      release: () => {
        released.push(answer.url.pathname);
        answer.release();
      },
    };
    return counted;
  };
  return { released, fetch };
}

/** The machine on its real actors, with a writer that reads the whole body (`writes` its paths). */
function machineWith(
  url: string,
  fetch: DownloadActorDependencies['fetch'],
  extra: Partial<DownloadActorDependencies> = {},
  writes: string[] = [],
) {
  return downloadMachine.provide({
    actors: makeDownloadActors({
      resolveUrl: () => url,
      fetch,
      write: async (path, body, options) => {
        writes.push(path);
        let size = 0;
        for await (const chunk of body) {
          size += chunk.byteLength;
          options.onBytes(size);
        }
        return { path, size, mediaType: options.mediaType };
      },
      ...extra,
    }),
  });
}

describe('the download releases its connection', () => {
  it('after the file is written', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '300' });
      res.end(PNG);
    });
    const { released, fetch } = countedFetch({ ignoreSignal: false });
    const work: Promise<unknown>[] = [];
    const machine = machineWith(`${server.origin}/files/cat.png`, fetch, {
      track: (promise) => work.push(promise),
    });
    const result = await runMachine(machine, { maxBytes: 1_000 });
    await Promise.allSettled(work);
    expect(result.file.size).toBe(300);
    expect(released).toEqual(['/files/cat.png']);
  });

  it('when a declared length over the cap is refused before any write', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '300' });
      res.end(PNG);
    });
    const { released, fetch } = countedFetch({ ignoreSignal: false });
    const writes: string[] = [];
    const machine = machineWith(`${server.origin}/files/cat.png`, fetch, {}, writes);
    await expect(runMachine(machine, { maxBytes: 100 })).rejects.toMatchObject({
      code: 'DOWNLOAD_TOO_LARGE',
      maxBytes: 100,
    });
    // Refused on the head's Content-Length: the writer never started.
    expect(writes).toEqual([]);
    // The chart stops the transfer inside its HEADERS report, so both the stop and the report's
    // own check release it (a second release is harmless: it destroys a destroyed agent).
    expect(released).toEqual(['/files/cat.png', '/files/cat.png']);
  });

  it('when the caller stops it mid-body: by the write, not a second time on the way out', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG);
    });
    const { released, fetch } = countedFetch({ ignoreSignal: false });
    const controller = new AbortController();
    const work: Promise<unknown>[] = [];
    const machine = machineWith(`${server.origin}/files/cat.png`, fetch, {
      track: (promise) => work.push(promise),
      write: async (_path, body) => {
        for await (const _chunk of body) controller.abort('stop');
        throw new Error('unreachable: the body never ends');
      },
    });
    await expect(
      runMachine(machine, { maxBytes: 1_000 }, { signal: controller.signal }),
    ).rejects.toBe('stop');
    await Promise.allSettled(work);
    expect(released).toEqual(['/files/cat.png']);
  });

  it('when the head lands after the caller stopped the transfer', async () => {
    let answerHead: (() => void) | undefined;
    const server = await serve((_req, res) => {
      answerHead = () => {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': '300' });
        res.end(PNG);
      };
    });
    const { released, fetch } = countedFetch({ ignoreSignal: true });
    const controller = new AbortController();
    const work: Promise<unknown>[] = [];
    const machine = machineWith(`${server.origin}/files/cat.png`, fetch, {
      track: (promise) => work.push(promise),
    });
    const run = runMachine(machine, { maxBytes: 1_000 }, { signal: controller.signal });
    await expect.poll(() => answerHead).toBeDefined();
    controller.abort('stop');
    await expect(run).rejects.toBe('stop');
    expect(released).toEqual([]);
    answerHead?.();
    await Promise.allSettled(work);
    expect(released).toEqual(['/files/cat.png']);
  });
});
