/**
 * The I/O of `openApiCall`, as named actors: the credential, and the request with its bounded
 * answer. Each stops promptly when XState aborts its signal (deadline, cancellation). The token
 * resolver and the HTTP sender enter once, through {@link makeOpenApiCallActors}.
 */
import { fromPromise } from 'xstate';
import { placeCredential } from '../../openapi/security.js';
import { readRefusal } from '../../wire/http/refusal.js';
import {
  fetchWithoutRedirects,
  operationScope,
  type ReadBudget,
  readBoundedText,
  type WireResponse,
  type WireSend,
  writeTraceHeaders,
} from '../../wire/index.js';
import { bytesReadCounter } from '../bytes-read.js';
import { makeResolveCredentials, type TokenResolver } from '../credentials.js';
import { decodeResponseBody, hasNoBody } from './open-api-call.policy.js';
import type {
  OpenApiCallContext,
  OpenApiExchange,
  SendRequestInput,
} from './open-api-call.types.js';

/** What the actors depend on; both have defaults, so the bare machine runs anonymously. */
export interface OpenApiCallDependencies {
  /** Resolves a run's token from its principal; default: no token. */
  readonly resolveToken?: TokenResolver;
  /** Sends the request; default the wire's own (undici on one shared keep-alive pool). */
  readonly send?: WireSend;
}

/** The input of `sendRequest` for the run in `context`. */
export function sendRequestInput(
  context: OpenApiCallContext,
  reporter: SendRequestInput['reporter'],
): SendRequestInput {
  return {
    connectionName: context.connectionName,
    request: context.request,
    token: context.token,
    headers: context.headers,
    trace: context.trace,
    fence: context.fence,
    maxBytes: context.limits.maxResponseBytes,
    reporter,
  };
}

/** The request, then its answer with the bytes it read and did not report (decision 0016). */
async function sendRequest(
  input: SendRequestInput,
  signal: AbortSignal,
  send: WireSend | undefined,
): Promise<OpenApiExchange> {
  const scope = operationScope(input.connectionName, 'openapi/call');
  const wire = placeCredential(input.request, input.token?.reveal(), signal, input.headers);
  writeTraceHeaders(wire.headers, input.trace);
  const response = await fetchWithoutRedirects(wire, scope, input.fence, send);
  // The call's one answer is what leaves `requesting`, so a body that has ended by the time its
  // bytes would be reported sends no `BYTES_READ`: the answer carries them.
  const counter = bytesReadCounter(
    signal,
    (bytes) => input.reporter.send({ type: 'BYTES_READ', bytes }),
    0,
    response.body ?? undefined,
  );
  const budget = { maxBytes: input.maxBytes, signal, onBytes: counter.onBytes, ...scope };
  const answer = await readAnswer(response, input, budget);
  return { unreportedBytes: counter.closeUnreported(), ...answer };
}

/** What the answer says, read within its budget. */
async function readAnswer(
  response: WireResponse,
  input: SendRequestInput,
  budget: ReadBudget,
): Promise<OpenApiExchange> {
  // The machine's guards decide what a refusal means; the wire reads it (a 401's body cancelled).
  if (!response.ok) return { kind: 'http-error', ...(await readRefusal(response, budget)) };
  // A body is still read (and bounded) when none is expected, so the connection can be reused.
  const text = await readBoundedText(response, budget);
  if (hasNoBody(input.request.method, response.status)) {
    return { kind: 'decoded', status: response.status, value: null };
  }
  return decodeResponseBody(response.status, response.headers.get('content-type'), text);
}

/** Builds the named actors of `openApiCall`; pass them to `openApiCallMachine.provide`. */
export function makeOpenApiCallActors(deps: OpenApiCallDependencies = {}) {
  return {
    /** Resolves this run's token for its principal. */
    resolveCredentials: makeResolveCredentials(deps.resolveToken),
    /** The request and its bounded, decoded answer. */
    sendRequest: fromPromise<OpenApiExchange, SendRequestInput>(({ input, signal }) =>
      sendRequest(input, signal, deps.send),
    ),
  };
}
