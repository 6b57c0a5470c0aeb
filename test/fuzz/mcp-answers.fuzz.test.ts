/**
 * Generated MCP answers on a real server on loopback, over Streamable HTTP and through the
 * fallback to legacy SSE: random statuses and headers (huge ones included), random bytes,
 * truncated and random JSON, SSE streams with random frames and newlines, wrong ids, bodies around
 * the byte bound, answers cut short. Every call ends within its deadline plus 250 ms, in success
 * or a typed failure of ours; never an untyped error, a hang or an unhandled rejection (the suite's
 * leak check and the process guard hold the last two).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runTool } from '../../src/binding/index.js';
import { mountConnections } from '../../src/connections/index.js';
import {
  answerRpc,
  type FaultReply,
  type LegacyPostOutcome,
  legacyMcpHandler,
  mcpHandler,
  reply,
  sseMessageFrame,
} from '../fixtures/fault-server.js';
import { connect, useFaultServers } from '../support/fault-suite.js';
import { isTypedResult } from '../support/typed-outcome.js';
import { fuzzParameters } from './fuzz-config.js';

const { start } = useFaultServers();

const MAX_BYTES = 2_048;
const DEADLINE_MS = 600;
/** Handshake window plus request window: the longest a call may take, before the 250 ms slack. */
const CALL_BOUND_MS = 2 * DEADLINE_MS + 250;

const STATUS = fc.constantFrom(
  200,
  200,
  200,
  202,
  204,
  301,
  307,
  400,
  401,
  403,
  404,
  405,
  429,
  500,
  503,
);
const CONTENT_TYPE = fc.constantFrom(
  'application/json',
  'text/event-stream',
  'text/plain',
  'application/json; charset=utf-8',
  'TEXT/EVENT-STREAM; charset=utf-8',
  '',
);
const NEWLINE = fc.constantFrom('\n', '\r', '\r\n');
const ID = fc.constantFrom<unknown>(2, 2, 3, '2', null, 0, -1);
const JSON_RPC = fc.oneof(
  ID.map((id) =>
    JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'ok' }] } }),
  ),
  ID.map((id) => JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'no' } })),
  ID.map((id) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: 'not an array' } })),
  fc.json({ maxDepth: 3 }),
);
const BODY = fc.oneof(
  JSON_RPC,
  JSON_RPC.chain((text) => fc.nat({ max: text.length }).map((cut) => text.slice(0, cut))),
  fc
    .tuple(
      fc.array(
        fc.tuple(
          fc.constantFrom('data: ', 'event: message', ': c', 'id: 1', 'retry: 5', 'data'),
          JSON_RPC,
          NEWLINE,
        ),
        { maxLength: 6 },
      ),
      NEWLINE,
    )
    .map(
      ([frames, end]) =>
        frames
          .map(
            ([field, value, nl]) => `${field}${field.startsWith('data: ') ? value : ''}${nl}${nl}`,
          )
          .join('') + end,
    ),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc
    .nat({ max: 64 })
    .map(
      (extra) =>
        `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"${'x'.repeat(MAX_BYTES - 70 + extra)}"}]}}`,
    ),
);
const HEADERS = fc.oneof(
  fc.constant({}),
  fc.constant({ 'retry-after': '0' }),
  fc.constant({ 'www-authenticate': 'Bearer realm="r", error="invalid_token"' }),
  fc
    .nat({ max: 3 })
    .map((n) => ({ 'x-pad': 'p'.repeat([100, 20_000, 70_000, 16_000][n] as number) })),
  fc.constant({ location: 'http://127.0.0.1:1/elsewhere' }),
);
const ANSWER = fc
  .record({
    status: STATUS,
    contentType: CONTENT_TYPE,
    headers: HEADERS,
    body: BODY,
    chunks: fc.nat({ max: 4 }),
    ended: fc.boolean(),
    // A socket cut after the chunks, one answer in five.
    cut: fc.nat({ max: 4 }).map((n) => n === 0),
  })
  .map(({ status, contentType, headers, body, chunks, ended, cut }): FaultReply => {
    const size = Math.max(1, Math.ceil(body.length / (chunks + 1)));
    const parts = body.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [];
    return reply.raw(
      status,
      { ...(contentType === '' ? {} : { 'content-type': contentType }), ...headers },
      parts,
      { endAfter: ended || parts.length === 0, cut },
    );
  });

/** What a legacy endpoint POST is answered, and what the stream then carries (random frames). */
const LEGACY_OUTCOME = fc.record({
  frames: fc.array(
    fc.oneof(
      ID.map((id) => sseMessageFrame({ jsonrpc: '2.0', id, result: { content: [] } })),
      JSON_RPC.map((text) => `data: ${text}\n\n`),
      fc.constantFrom(
        ': comment\n\n',
        'event: endpoint\ndata: /elsewhere\n\n',
        'data: {\r\n\r\n',
        'retry: 1\n\n',
      ),
    ),
    { maxLength: 4 },
  ),
  status: fc.constantFrom(202, 202, 202, 200, 400, 404, 500),
});

describe('a tools/call answered with generated answers', () => {
  it.each([
    ['Streamable HTTP', 'tools/call'],
    ['the handshake (initialize), with the fallback to legacy SSE on 400/404/405', 'initialize'],
  ])(
    'over %s ends typed within its deadline',
    async (_label, method) => {
      // The mount is answered as a server would; every call after it gets a generated answer.
      let answer: FaultReply | undefined;
      const server = await start(
        mcpHandler({ [method]: (request) => answer ?? reply.json(200, answerRpc(request)) }),
      );
      const [tool] = await mountConnections([
        connect(server, { maxResponseBytes: MAX_BYTES, timeoutMs: DEADLINE_MS }),
      ]);
      const untyped: string[] = [];
      let worst = 0;
      await fc.assert(
        fc.asyncProperty(ANSWER, async (generated) => {
          answer = generated;
          const started = performance.now();
          const result = await runTool(tool as never, { message: 'fuzz' }, { source: 'agent' });
          const elapsed = performance.now() - started;
          worst = Math.max(worst, elapsed);
          if (!isTypedResult(result)) untyped.push(JSON.stringify(result).slice(0, 200));
          expect(isTypedResult(result)).toBe(true);
          expect(elapsed).toBeLessThan(CALL_BOUND_MS);
        }),
        fuzzParameters(80),
      );
      expect(untyped).toEqual([]);
      console.info(
        `mcp answers fuzz (${method}): worst call ${worst.toFixed(0)} ms of ${CALL_BOUND_MS}`,
      );
    },
    90_000,
  );

  it('over legacy HTTP+SSE (random stream frames, random POST answers) ends typed within its deadline', async () => {
    let outcome: LegacyPostOutcome | undefined;
    const server = await start(
      legacyMcpHandler({
        rpc: {
          'tools/call': (_request, _server, correct) =>
            outcome ?? { frames: correct === undefined ? [] : [sseMessageFrame(correct)] },
        },
      }),
    );
    const [tool] = await mountConnections([
      connect(server, {
        maxResponseBytes: MAX_BYTES,
        timeoutMs: DEADLINE_MS,
        transport: { url: server.url, type: 'sse' },
      }),
    ]);
    let worst = 0;
    await fc.assert(
      fc.asyncProperty(LEGACY_OUTCOME, async ({ frames, status }) => {
        outcome = { frames, reply: reply.status(status) };
        const started = performance.now();
        const result = await runTool(tool as never, { message: 'fuzz' }, { source: 'agent' });
        const elapsed = performance.now() - started;
        worst = Math.max(worst, elapsed);
        expect(isTypedResult(result), JSON.stringify(result).slice(0, 200)).toBe(true);
        expect(elapsed).toBeLessThan(CALL_BOUND_MS);
      }),
      fuzzParameters(40),
    );
    console.info(
      `mcp answers fuzz (legacy): worst call ${worst.toFixed(0)} ms of ${CALL_BOUND_MS}`,
    );
  }, 90_000);
});
