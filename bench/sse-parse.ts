/**
 * Benchmark 2: SSE parse throughput. Our `readSseBatches`, the reader the MCP actors use (raw-byte
 * frame meter + byte budget + decode + eventsource-parser, one async step per chunk) against bare
 * eventsource-parser over the same pre-encoded chunks, LF and CRLF framing.
 */
import { createParser } from 'eventsource-parser';
import { readSseBatches } from '../dist/wire/index.js';
import { formatOrders, roundOrders } from './run-order.js';
import { fmt, median, p95, printTable, ratio } from './stats.js';
import { log } from './transcript.js';

export interface SseOptions {
  readonly totalBytes: number;
  readonly chunkBytes: number;
  readonly rounds: number;
}

interface Corpus {
  readonly chunks: readonly Uint8Array[];
  readonly bytes: number;
  readonly events: number;
}

/** Frames shaped like MCP answers on an SSE stream: an id, an event name, one JSON data line. */
function buildCorpus(totalBytes: number, chunkBytes: number, newline: string): Corpus {
  const parts: string[] = [];
  let size = 0;
  let events = 0;
  while (size < totalBytes) {
    const data = JSON.stringify({
      jsonrpc: '2.0',
      id: events,
      result: { content: [{ type: 'text', text: `Echo: message number ${events}` }] },
    });
    const frame = `id: ${events}${newline}event: message${newline}data: ${data}${newline}${newline}`;
    parts.push(frame);
    size += frame.length; // ASCII only: characters are bytes
    events += 1;
  }
  const all = new TextEncoder().encode(parts.join(''));
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < all.byteLength; offset += chunkBytes) {
    chunks.push(all.slice(offset, offset + chunkBytes));
  }
  return { chunks, bytes: all.byteLength, events };
}

function responseOf(chunks: readonly Uint8Array[]): Response {
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
  return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
}

async function ours(corpus: Corpus): Promise<number> {
  let events = 0;
  const batches = readSseBatches(responseOf(corpus.chunks), {
    connectionName: 'bench',
    operation: 'tools/call',
    phase: 'call',
    maxBytes: Number.POSITIVE_INFINITY,
    maxFrameBytes: 1024 * 1024,
    signal: new AbortController().signal,
  });
  for await (const batch of batches) {
    for (const message of batch) if (message.data.length > 0) events += 1;
  }
  return events;
}

/** Bare parser, chunks straight from the array: decode + feed, nothing else. */
async function bareArray(corpus: Corpus): Promise<number> {
  let events = 0;
  const parser = createParser({ onEvent: () => (events += 1) });
  const decoder = new TextDecoder();
  for (const chunk of corpus.chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  return events;
}

/** Bare parser reading the same `Response` stream: shows what the stream itself costs. */
async function bareStream(corpus: Corpus): Promise<number> {
  let events = 0;
  const parser = createParser({ onEvent: () => (events += 1) });
  const decoder = new TextDecoder();
  const reader = (responseOf(corpus.chunks).body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  parser.feed(decoder.decode());
  return events;
}

const VARIANTS = [
  { name: 'ours: readSseBatches (Response stream)', run: ours },
  { name: 'eventsource-parser over the chunk array', run: bareArray },
  { name: 'eventsource-parser reading the Response', run: bareStream },
] as const;

export interface SseResult {
  readonly framing: string;
  readonly mbPerSecond: readonly number[];
}

/**
 * Runs benchmark 2 for LF and CRLF framing and prints its tables; each round runs the variants in
 * an order drawn from `seed` (`run-order.ts`).
 */
export async function runSseParse(options: SseOptions, seed: number): Promise<SseResult[]> {
  const results: SseResult[] = [];
  for (const [framing, newline] of [
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ] as const) {
    const corpus = buildCorpus(options.totalBytes, options.chunkBytes, newline);
    const seconds = VARIANTS.map(() => [] as number[]);
    for (const variant of VARIANTS) {
      const events = await variant.run(corpus); // warm-up, and a correctness check
      if (events !== corpus.events) {
        throw new Error(`${variant.name} saw ${events} events, expected ${corpus.events}`);
      }
    }
    const orders = roundOrders(seed, `sse ${framing}`, VARIANTS.length, options.rounds);
    for (const order of orders) {
      for (const index of order) {
        const variant = VARIANTS[index] as (typeof VARIANTS)[number];
        const start = performance.now();
        await variant.run(corpus);
        (seconds[index] as number[]).push((performance.now() - start) / 1000);
      }
    }
    const megabytes = corpus.bytes / 1e6;
    const medians = seconds.map((samples) => megabytes / median(samples));
    const tails = seconds.map((samples) => megabytes / p95(samples));
    log(
      `\nSSE parse, ${framing} framing: ${fmt(megabytes, 1)} MB, ${corpus.events.toLocaleString('en-US')} events,` +
        ` ${options.chunkBytes / 1024} KiB chunks, ${options.rounds} rounds` +
        `\nrounds' order (rows as listed, seed ${seed}): ${formatOrders(orders)}`,
    );
    printTable(
      ['parser', 'MB/s median', 'MB/s (p95 round)', 'ours/alt'],
      VARIANTS.map((variant, index) => [
        variant.name,
        fmt(medians[index] as number, 1),
        fmt(tails[index] as number, 1),
        ratio(medians[0] as number, medians[index] as number),
      ]),
    );
    results.push({ framing, mbPerSecond: medians });
  }
  return results;
}
