/**
 * Generated answers to one MCP request over Streamable HTTP, each with the outcome its own oracle
 * expects: a complete 2xx answer (JSON or SSE, any split, any newline, padded heads, notifications
 * before it) with the right id and a valid result succeeds; a wrong id, a JSON-RPC error, an
 * invalid result, a truncated or random body, a missing answer body is a protocol failure; a
 * status, a redirect, a body or head over the bound, a cut socket and an unfinished body each end
 * in their own class. The oracle reads only how the answer was generated.
 */
import fc from 'fast-check';
import { type FaultReply, reply, type SeenRequest } from '../fixtures/fault-server.js';

/** The byte bound of the connection under fuzz. */
export const MAX_BYTES = 4_096;

/** A JSON-RPC response as the fixtures build it. */
type RpcResponse = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: unknown };

/** What the generated answer is, and the outcome codes its oracle accepts (`ok` for a success). */
export interface GeneratedAnswer {
  readonly kind: string;
  readonly expected: readonly string[];
  /** The reply to `request`, given the response a correct server would send. */
  readonly reply: (request: SeenRequest, correct: RpcResponse) => FaultReply;
}

const PROTOCOL = ['CONNECTION_PROTOCOL_ERROR'];
/** A socket cut mid-answer: the connection closed (network) or the HTTP framing broke (protocol). */
const CUT = ['CONNECTION_NETWORK_ERROR', 'CONNECTION_PROTOCOL_ERROR'];

const NEWLINE = fc.constantFrom('\n', '\r\n', '\r');
const NEWLINE_NAME: Readonly<Record<string, string>> = { '\n': 'LF', '\r\n': 'CRLF', '\r': 'CR' };
const JSON_TYPE = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON',
  'text/plain',
  '',
);
const SSE_TYPE = fc.constantFrom('text/event-stream', 'TEXT/EVENT-STREAM; charset=utf-8');
/** Heads under the 64 KiB bound (undici's own default is 16 KiB). */
const PAD = fc.constantFrom<Record<string, string>>(
  {},
  { 'x-pad': 'p'.repeat(100) },
  { 'x-pad': 'p'.repeat(20_000) },
);
const CHUNKS = fc.nat({ max: 4 });

function split(text: string, chunks: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / (chunks + 1)));
  return text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [];
}

/** Another id than `id`: the next number, the same digits as a string, or `null`. */
const OTHER_ID = fc.constantFrom<(id: unknown) => unknown>(
  (id) => (typeof id === 'number' ? id + 1 : `${String(id)}x`),
  (id) => String(id),
  () => null,
);

/** A result that breaks the request's own result schema. */
function invalidResult(correct: RpcResponse): unknown {
  const result = correct.result as Record<string, unknown>;
  return 'content' in result ? { content: 'not an array' } : { ...result, protocolVersion: 42 };
}

/** The correct result with a text field grown by `bytes`, past or under the byte bound. */
function grown(correct: RpcResponse, bytes: number): RpcResponse {
  const result = correct.result as Record<string, unknown>;
  const pad = 'x'.repeat(bytes);
  return 'content' in result
    ? { ...correct, result: { ...result, _meta: { pad } } }
    : { ...correct, result: { ...result, instructions: pad } };
}

/** SSE frames before the response: comments, a retry hint, a notification, an event id. */
const PRELUDE = fc.array(
  fc.constantFrom(
    (nl: string) => `: keepalive${nl}${nl}`,
    (nl: string) => `retry: 5${nl}${nl}`,
    (nl: string) =>
      `event: message${nl}data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}${nl}${nl}`,
    (nl: string) => `id: 7${nl}data: ${nl}${nl}`,
  ),
  { maxLength: 3 },
);

function sseText(prelude: ((nl: string) => string)[], message: unknown, nl: string): string {
  return `${prelude.map((frame) => frame(nl)).join('')}event: message${nl}data: ${JSON.stringify(message)}${nl}${nl}`;
}

/**
 * A complete 2xx answer: JSON or SSE, with the right id and a valid result. A body under any
 * media type but `text/event-stream` is read as JSON (the client is lenient there, as browsers'
 * `response.json()` is), so `text/plain` and no `content-type` are complete JSON answers too.
 */
const SUCCESS_JSON = fc
  .record({ type: JSON_TYPE, pad: PAD, chunks: CHUNKS })
  .map(({ type, pad, chunks }) => ({
    kind: 'complete JSON',
    expected: ['ok'],
    reply: (_request: SeenRequest, correct: RpcResponse) =>
      reply.raw(
        200,
        { ...(type === '' ? {} : { 'content-type': type }), ...pad },
        split(JSON.stringify(correct), chunks),
      ),
  }));
const SUCCESS_SSE = fc
  .record({
    type: SSE_TYPE,
    pad: PAD,
    chunks: CHUNKS,
    nl: NEWLINE,
    prelude: PRELUDE,
    open: fc.boolean(),
  })
  .map(({ type, pad, chunks, nl, prelude, open }) => ({
    kind: `complete SSE (${NEWLINE_NAME[nl]}${open ? ', kept open' : ''})`,
    expected: ['ok'],
    reply: (_request: SeenRequest, correct: RpcResponse) =>
      reply.raw(
        200,
        { 'content-type': type, ...pad },
        split(sseText(prelude, correct, nl), chunks),
        {
          endAfter: !open,
        },
      ),
  }));

/** A complete answer whose message is wrong: another id, a JSON-RPC error, an invalid result. */
const WRONG_MESSAGE = fc
  .record({
    wrong: fc.constantFrom('wrong id', 'JSON-RPC error', 'invalid result'),
    otherId: OTHER_ID,
    sse: fc.boolean(),
    nl: NEWLINE,
    chunks: CHUNKS,
  })
  .map(({ wrong, otherId, sse, nl, chunks }) => ({
    kind: `${wrong} (${sse ? 'SSE' : 'JSON'})`,
    expected: PROTOCOL,
    reply: (_request: SeenRequest, correct: RpcResponse) => {
      const message =
        wrong === 'wrong id'
          ? { ...correct, id: otherId(correct.id) }
          : wrong === 'JSON-RPC error'
            ? { jsonrpc: '2.0', id: correct.id, error: { code: -32000, message: 'no' } }
            : { jsonrpc: '2.0', id: correct.id, result: invalidResult(correct) };
      return sse
        ? reply.raw(
            200,
            { 'content-type': 'text/event-stream' },
            split(sseText([], message, nl), chunks),
          )
        : reply.raw(
            200,
            { 'content-type': 'application/json' },
            split(JSON.stringify(message), chunks),
          );
    },
  }));

/** A 200 body that is not a JSON-RPC response: cut short, random bytes, or the wrong media type. */
const BAD_BODY = fc
  .record({
    bad: fc.constantFrom('truncated JSON', 'random bytes'),
    cut: fc.double({ min: 0, max: 0.99, noNaN: true }),
    bytes: fc.uint8Array({ maxLength: 64 }),
  })
  .map(({ bad, cut, bytes }) => ({
    kind: bad,
    expected: PROTOCOL,
    reply: (_request: SeenRequest, correct: RpcResponse) => {
      const text = JSON.stringify(correct);
      if (bad === 'truncated JSON') {
        return reply.raw(200, { 'content-type': 'application/json' }, [
          text.slice(0, Math.floor(text.length * cut)),
        ]);
      }
      return reply.raw(200, { 'content-type': 'application/json' }, [Buffer.from(bytes)]);
    },
  }));

const STATUS_EXPECTED: Readonly<Record<number, readonly string[]>> = {
  202: PROTOCOL,
  204: PROTOCOL,
  400: ['CONNECTION_REQUEST_FAILED'],
  401: ['UNAUTHORIZED'],
  403: ['FORBIDDEN'],
  404: ['CONNECTION_REQUEST_FAILED'],
  405: ['CONNECTION_REQUEST_FAILED'],
  429: ['CONNECTION_REQUEST_FAILED'],
  500: ['CONNECTION_REQUEST_FAILED'],
  503: ['CONNECTION_REQUEST_FAILED'],
  301: ['BAD_REQUEST'],
  307: ['BAD_REQUEST'],
  308: ['BAD_REQUEST'],
};

/** A status that is not a 200 with an answer, with a body and headers a server might send. */
const STATUS = fc
  .record({
    // 401 and 403 twice: each has a floor of its own.
    status: fc.constantFrom(...Object.keys(STATUS_EXPECTED).map(Number), 401, 403),
    body: fc.constantFrom(
      '',
      'no',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"x"}}',
    ),
    headers: fc.constantFrom<Record<string, string>>(
      {},
      { 'retry-after': '0' },
      { 'www-authenticate': 'Bearer realm="r", error="invalid_token"' },
      { location: 'http://127.0.0.1:1/elsewhere' },
    ),
  })
  .map(({ status, body, headers }) => ({
    kind: `status ${status}`,
    expected: STATUS_EXPECTED[status] as readonly string[],
    reply: () =>
      status >= 300 && status < 400
        ? reply.raw(status, { location: '/elsewhere', ...headers }, [body])
        : reply.raw(status, { 'content-type': 'text/plain', ...headers }, [body]),
  }));

/** A body or a head past its bound. */
const TOO_LARGE = fc
  .record({ head: fc.boolean(), extra: fc.nat({ max: 4_096 }), sse: fc.boolean() })
  .map(({ head, extra, sse }) => ({
    kind: head ? 'head over 64 KiB' : `body over the bound (${sse ? 'SSE' : 'JSON'})`,
    expected: ['CONNECTION_RESPONSE_TOO_LARGE'],
    reply: (_request: SeenRequest, correct: RpcResponse) => {
      if (head) {
        return reply.raw(
          200,
          { 'content-type': 'application/json', 'x-pad': 'p'.repeat(70_000 + extra) },
          [JSON.stringify(correct)],
        );
      }
      const big = grown(correct, MAX_BYTES + 200 + extra);
      return sse
        ? reply.raw(200, { 'content-type': 'text/event-stream' }, [sseText([], big, '\n')])
        : reply.raw(200, { 'content-type': 'application/json' }, [JSON.stringify(big)]);
    },
  }));

/** A body under the bound by a margin: it succeeds like any complete answer. */
const NEAR_BOUND = fc.nat({ max: 1_024 }).map((slack) => ({
  kind: 'body under the bound',
  expected: ['ok'],
  reply: (_request: SeenRequest, correct: RpcResponse) =>
    reply.raw(200, { 'content-type': 'application/json' }, [
      JSON.stringify(grown(correct, MAX_BYTES - 1_400 - slack)),
    ]),
}));

/** The socket cut after part of the answer, with or without a content-length. */
const CUT_SOCKET = fc
  .record({
    length: fc.boolean(),
    cut: fc.double({ min: 0, max: 0.9, noNaN: true }),
    sse: fc.boolean(),
  })
  .map(({ length, cut, sse }) => ({
    kind: `socket cut (${sse ? 'SSE' : 'JSON'}, ${length ? 'content-length' : 'chunked'})`,
    expected: CUT,
    reply: (_request: SeenRequest, correct: RpcResponse) => {
      const text = sse ? sseText([], correct, '\n') : JSON.stringify(correct);
      const type = sse ? 'text/event-stream' : 'application/json';
      const headers: Record<string, string> = length
        ? { 'content-type': type, 'content-length': String(Buffer.byteLength(text)) }
        : { 'content-type': type };
      return reply.raw(200, headers, [text.slice(0, Math.floor(text.length * cut))], { cut: true });
    },
  }));

/** Part of an answer, then nothing: the deadline ends it. */
const UNFINISHED = fc
  .record({ cut: fc.double({ min: 0, max: 0.9, noNaN: true }), sse: fc.boolean() })
  .map(({ cut, sse }) => ({
    kind: `unfinished (${sse ? 'SSE' : 'JSON'})`,
    expected: ['CONNECTION_TIMEOUT'],
    reply: (_request: SeenRequest, correct: RpcResponse) => {
      const text = sse ? sseText([], correct, '\n') : JSON.stringify(correct);
      // An SSE stream is kept open before its response frame ends; a JSON body before its end.
      const part = sse
        ? text.slice(0, Math.min(text.length - 3, Math.floor(text.length * cut)))
        : text.slice(0, Math.floor(text.length * cut));
      return reply.raw(
        200,
        { 'content-type': sse ? 'text/event-stream' : 'application/json' },
        [part],
        {
          endAfter: false,
        },
      );
    },
  }));

/** Every kind of answer, successes most often; an unfinished one costs a whole deadline. */
export const ANSWER: fc.Arbitrary<GeneratedAnswer> = fc.oneof(
  { weight: 6, arbitrary: SUCCESS_JSON },
  { weight: 6, arbitrary: SUCCESS_SSE },
  { weight: 2, arbitrary: NEAR_BOUND },
  { weight: 5, arbitrary: WRONG_MESSAGE },
  { weight: 4, arbitrary: BAD_BODY },
  { weight: 9, arbitrary: STATUS },
  { weight: 4, arbitrary: TOO_LARGE },
  { weight: 3, arbitrary: CUT_SOCKET },
  { weight: 2, arbitrary: UNFINISHED },
);
