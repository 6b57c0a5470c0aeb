/**
 * The wire's one seam (decision 0035), rule by rule: what `wireFaultOf` reads any thrown value
 * as, what `wireFailure` and `downloadFailure` build from it, what passes unchanged, and what
 * `streamFailureIn` tells again in the scope of the operation in progress.
 */
import { describe, expect, it } from 'vitest';
import { toolResultFromError } from '../../../src/binding/index.js';
import type { OperationScope } from '../../../src/wire/core/operation.js';
import { DownloadError, downloadFailure } from '../../../src/wire/download/download-error.js';
import {
  ConnectionProtocolError,
  ConnectionResponseTooLargeError,
  ConnectionUrlError,
} from '../../../src/wire/errors/errors.js';
import { ConnectionNetworkError } from '../../../src/wire/errors/network-error.js';
import {
  streamFailureIn,
  wireFailure,
  wireFaultOf,
} from '../../../src/wire/errors/wire-failure.js';
import { fetchWithoutRedirects, type WireSend } from '../../../src/wire/http/fetch-guarded.js';
import { createHostFence } from '../../../src/wire/http/url-fence.js';

const coded = (code: string, name = 'Error') =>
  Object.assign(new Error('raw'), { code, name }) as Error;
const wrapped = (cause: unknown) => new Error('outer', { cause });

const STREAM: OperationScope = { connectionName: 'c', operation: 'endpoint', phase: 'discovery' };
const CALL: OperationScope = {
  connectionName: 'c',
  operation: 'tools/call',
  phase: 'call',
  observedReadBytes: 7,
};
const live = () => new AbortController().signal;

describe('wireFaultOf', () => {
  it.each([
    ['a head past the bound', coded('UND_ERR_HEADERS_OVERFLOW'), { kind: 'too-large' }],
    ['a known network code', coded('ECONNRESET'), { kind: 'network', failure: 'reset' }],
    [
      'a known code in a cause',
      wrapped(coded('UND_ERR_SOCKET')),
      { kind: 'network', failure: 'closed' },
    ],
    [
      'a TLS code by its prefix',
      coded('ERR_TLS_CERT_ALTNAME_INVALID'),
      { kind: 'network', failure: 'tls' },
    ],
    [
      'a parser code',
      coded('HPE_INVALID_CONSTANT'),
      { kind: 'http', fault: 'HPE_INVALID_CONSTANT' },
    ],
    [
      'a parser error without a code',
      Object.assign(new Error('x'), { name: 'HTTPParserError' }),
      { kind: 'http', fault: 'HTTPParserError' },
    ],
    [
      'a body off its content-length',
      coded('UND_ERR_RES_CONTENT_LENGTH_MISMATCH'),
      { kind: 'http', fault: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' },
    ],
    [
      'a parser code in a cause',
      wrapped(coded('HPE_INVALID_EOF_STATE')),
      { kind: 'http', fault: 'HPE_INVALID_EOF_STATE' },
    ],
    [
      "undici's socket error for an unsolicited 101",
      Object.assign(new Error('bad upgrade'), { code: 'UND_ERR_SOCKET' }),
      { kind: 'http', fault: 'UND_ERR_SOCKET: bad upgrade' },
    ],
    [
      "undici's socket error for an unsolicited 100, in a cause",
      wrapped(Object.assign(new Error('bad response'), { code: 'UND_ERR_SOCKET' })),
      { kind: 'http', fault: 'UND_ERR_SOCKET: bad response' },
    ],
    ['an unknown code', coded('UND_ERR_SOMETHING_NEW'), { kind: 'network', failure: 'other' }],
    ['a TypeError', new TypeError('x'), { kind: 'network', failure: 'other' }],
    ['a string', 'planted', { kind: 'network', failure: 'other' }],
    ['undefined', undefined, { kind: 'network', failure: 'other' }],
    ['null', null, { kind: 'network', failure: 'other' }],
  ])('reads %s', (_, error, expected) => {
    expect(wireFaultOf(error)).toEqual(expected);
  });
});

describe('wireFailure', () => {
  it('keeps the caller reason once the signal aborted, whatever was thrown', () => {
    const controller = new AbortController();
    const reason = new Error('the caller left');
    controller.abort(reason);
    expect(wireFailure(coded('ECONNRESET'), CALL, controller.signal)).toBe(reason);
  });

  it('passes our own errors through unchanged', () => {
    const ceiling = new ConnectionResponseTooLargeError({ ...CALL, maxBytes: 10 });
    const refusal = new ConnectionUrlError({ ...CALL, refusal: 'off the fence' });
    expect(wireFailure(ceiling, CALL, live())).toBe(ceiling);
    expect(wireFailure(refusal, CALL, live())).toBe(refusal);
  });

  it('types an HTTP-level fault as a protocol failure in the scope, the raw error its cause', () => {
    const raw = coded('HPE_INVALID_EOF_STATE', 'HTTPParserError');
    const typed = wireFailure(raw, CALL, live());
    expect(typed).toBeInstanceOf(ConnectionProtocolError);
    expect(typed).toMatchObject({
      operation: 'tools/call',
      phase: 'call',
      observedReadBytes: 7,
      cause: raw,
      message:
        'Connection "c" sent an answer that broke HTTP/1.1 (HPE_INVALID_EOF_STATE) during tools/call',
    });
  });

  it('types a head past the bound as too large (64 KiB)', () => {
    const typed = wireFailure(coded('UND_ERR_HEADERS_OVERFLOW'), CALL, live());
    expect(typed).toBeInstanceOf(ConnectionResponseTooLargeError);
    expect(typed).toMatchObject({ maxBytes: 65_536, operation: 'tools/call' });
  });

  it('types anything else as a network failure, `other` when no code names it', () => {
    const typed = wireFailure('planted', CALL, live());
    expect(typed).toBeInstanceOf(ConnectionNetworkError);
    expect(typed).toMatchObject({
      failure: 'other',
      cause: 'planted',
      message:
        'Connection "c" failed on the network: the request failed for a reason the client does not recognise during tools/call',
    });
    // Nothing says another attempt would mend it.
    expect(toolResultFromError(typed)).toMatchObject({
      code: 'CONNECTION_NETWORK_ERROR',
      retryable: false,
    });
  });
});

describe('streamFailureIn', () => {
  it('tells what the seam typed in the stream scope again in the operation in progress', () => {
    const raw = coded('UND_ERR_SOCKET');
    const atOpening = wireFailure(raw, STREAM, live());
    const told = streamFailureIn(atOpening, CALL);
    expect(told).toBeInstanceOf(ConnectionNetworkError);
    expect(told).toMatchObject({
      failure: 'closed',
      operation: 'tools/call',
      phase: 'call',
      cause: raw,
    });
  });

  it('keeps the scope of the stream own refusals, even one with a foreign cause', () => {
    const notJson = new ConnectionProtocolError({
      ...STREAM,
      violation: 'sent a message that was not JSON',
      cause: new SyntaxError('Unexpected token'),
    });
    expect(streamFailureIn(notJson, CALL)).toBe(notJson);
  });

  it('types a foreign error in the operation in progress', () => {
    expect(streamFailureIn(new Error('x'), CALL)).toMatchObject({
      name: 'ConnectionNetworkError',
      failure: 'other',
      operation: 'tools/call',
    });
  });
});

describe('downloadFailure', () => {
  it.each([
    ['a known network code', coded('ECONNREFUSED'), 'the connection was refused'],
    [
      'an HTTP-level fault',
      coded('UND_ERR_RES_CONTENT_LENGTH_MISMATCH'),
      'the answer broke HTTP/1.1',
    ],
    ['a head past the bound', coded('UND_ERR_HEADERS_OVERFLOW'), 'the answer head was too large'],
    ['a string', 'planted', 'the request failed for a reason the client does not recognise'],
  ])('types %s as DOWNLOAD_FAILED saying which, never where', (_, raw, detail) => {
    const typed = downloadFailure(raw, 'files.example:8443', live());
    expect(typed).toBeInstanceOf(DownloadError);
    expect(typed).toMatchObject({
      code: 'DOWNLOAD_FAILED',
      host: 'files.example:8443',
      cause: raw,
      message: `The download could not be completed (${detail})`,
    });
  });

  it('keeps a DownloadError and the caller reason as they are', () => {
    const refused = new DownloadError({ code: 'DOWNLOAD_HOST_REFUSED' });
    expect(downloadFailure(refused, 'h', live())).toBe(refused);
    const controller = new AbortController();
    controller.abort('gone');
    expect(downloadFailure(coded('ECONNRESET'), 'h', controller.signal)).toBe('gone');
  });
});

describe('fetchWithoutRedirects, the request exit', () => {
  const url = new URL('http://127.0.0.1:9/mcp');
  const fence = createHostFence('c', url);
  const request = { url, method: 'POST' as const, headers: {}, signal: live() };

  it.each([
    [
      'throws before it returns a promise',
      (() => {
        throw new TypeError('planted');
      }) as WireSend,
    ],
    ['rejects with a value that is not an Error', (() => Promise.reject('planted')) as WireSend],
  ])('types what a sender that %s fails with', async (_, send) => {
    const error = await fetchWithoutRedirects(request, CALL, fence, send).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionNetworkError);
    expect(error).toMatchObject({ failure: 'other', operation: 'tools/call', phase: 'call' });
  });
});
