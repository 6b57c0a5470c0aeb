/**
 * The I/O of `specLoad`: one GET of the document, with no credential, fenced, redirects refused,
 * bounded. The HTTP sender enters once, through {@link makeSpecLoadActors}.
 */
import { fromPromise } from 'xstate';
import {
  fetchWithoutRedirects,
  operationScope,
  readBoundedText,
  readErrorExcerpt,
  type WireSend,
} from '../../wire/index.js';
import { decodeSpecText } from './spec-load.policy.js';
import type { FetchSpecInput, SpecExchange, SpecLoadContext } from './spec-load.types.js';

/** What the actor depends on. */
export interface SpecLoadDependencies {
  /** Sends the GET; default the wire's own (undici on one shared keep-alive pool). */
  readonly send?: WireSend;
}

/** The input of `fetchSpec` for the run in `context`. */
export function fetchSpecInput(context: SpecLoadContext): FetchSpecInput {
  return {
    connectionName: context.connectionName,
    url: context.url,
    fence: context.fence,
    maxBytes: context.limits.maxResponseBytes,
  };
}

async function fetchSpec(
  input: FetchSpecInput,
  signal: AbortSignal,
  send: WireSend | undefined,
): Promise<SpecExchange> {
  const scope = operationScope(input.connectionName, 'openapi/spec');
  const response = await fetchWithoutRedirects(
    { url: new URL(input.url), method: 'GET', headers: { accept: 'application/json' }, signal },
    scope,
    input.fence,
    send,
  );
  const budget = { ...scope, maxBytes: input.maxBytes, signal };
  if (!response.ok) {
    return {
      kind: 'http-error',
      status: response.status,
      body: await readErrorExcerpt(response, budget),
    };
  }
  const text = await readBoundedText(response, budget);
  return decodeSpecText(text, response.headers.get('content-type'));
}

/** Builds the named actors of `specLoad`; pass them to `specLoadMachine.provide`. */
export function makeSpecLoadActors(deps: SpecLoadDependencies = {}) {
  return {
    /** The GET of the document and its bounded, decoded body. */
    fetchSpec: fromPromise<SpecExchange, FetchSpecInput>(({ input, signal }) =>
      fetchSpec(input, signal, deps.send),
    ),
  };
}
