/**
 * `specLoad`: loads an OpenAPI document from its URL under the discovery deadline (ADR 0180).
 * No credential is sent, the URL is fenced to its own host plus `allowHosts`, redirects are
 * refused, the body is bounded, and only a JSON object is a document.
 */
import { assign, setup } from 'xstate';
import {
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionTimeoutError,
  operationScope,
} from '../wire/index.js';
import { fetchSpecInput, makeSpecLoadActors } from './spec-load.actors.js';
import { specLoadGuards } from './spec-load.guards.js';
import type {
  SpecExchange,
  SpecLoadContext,
  SpecLoadEvent,
  SpecLoadInput,
  SpecLoadOutput,
} from './spec-load.types.js';

type With<T> = { readonly event: T };
type ExchangeDone = With<{ readonly output: SpecExchange }>;

function failed(error: unknown): { outcome: SpecLoadOutput } {
  return { outcome: { ok: false, error } };
}

const scopeOf = (context: SpecLoadContext) =>
  operationScope(context.connectionName, 'openapi/spec');

// Param mappers; each is taken only after the guard that selects its kind.
const exchangeOf = ({ event }: ExchangeDone) => ({ exchange: event.output });
const refusalOf = ({ event }: ExchangeDone) =>
  event.output.kind === 'http-error'
    ? { status: event.output.status, body: event.output.body }
    : { status: 0, body: '' };
const violationOf = ({ event }: ExchangeDone) => ({
  violation: event.output.kind === 'malformed' ? event.output.violation : '',
});
const documentOf = ({ event }: ExchangeDone) => ({
  document: event.output.kind === 'document' ? event.output.document : {},
});

/** `specLoad`'s setup: every implementation by name. */
export const specLoadSetup = setup({
  types: {} as {
    context: SpecLoadContext;
    events: SpecLoadEvent;
    input: SpecLoadInput;
    output: SpecLoadOutput;
  },
  actors: makeSpecLoadActors(),
  guards: specLoadGuards,
  delays: {
    SPEC_DEADLINE: ({ context }) => context.limits.timeoutMs,
  },
  actions: {
    succeed: assign((_, params: { document: Record<string, unknown> }) => ({
      outcome: { ok: true as const, document: params.document },
    })),
    failHttpStatus: assign(({ context }, params: { status: number; body: string }) =>
      failed(new ConnectionRequestError({ ...scopeOf(context), ...params })),
    ),
    failProtocol: assign(({ context }, params: { violation: string }) =>
      failed(new ConnectionProtocolError({ ...scopeOf(context), violation: params.violation })),
    ),
    failTimeout: assign(({ context }) =>
      failed(
        new ConnectionTimeoutError({ ...scopeOf(context), timeoutMs: context.limits.timeoutMs }),
      ),
    ),
    failWithError: assign((_, params: { error: unknown }) => failed(params.error)),
    failCancelled: assign((_, params: { reason: unknown }) => failed(params.reason)),
    // A spec load holds no secret; leaving `fetching` already aborted the GET. The named hook
    // keeps the shared teardown invariant.
    teardown: () => {},
  },
});

/** The `specLoad` machine. Provide its actor with `makeSpecLoadActors(deps)`. */
export const specLoadMachine = specLoadSetup.createMachine({
  id: 'specLoad',
  initial: 'fetching',
  context: ({ input }) => ({ ...input, outcome: undefined }),
  states: {
    // GET the document: fenced, no credential, redirects refused, bounded, under the deadline.
    fetching: {
      meta: { operation: 'openapi/spec' },
      invoke: {
        id: 'fetchSpec',
        src: 'fetchSpec',
        input: ({ context }) => fetchSpecInput(context),
        onDone: [
          {
            guard: { type: 'isHttpError', params: exchangeOf },
            target: 'closed',
            actions: { type: 'failHttpStatus', params: refusalOf },
          },
          {
            guard: { type: 'isMalformed', params: exchangeOf },
            target: 'closed',
            actions: { type: 'failProtocol', params: violationOf },
          },
          { target: 'closed', actions: { type: 'succeed', params: documentOf } },
        ],
        onError: {
          target: 'closed',
          actions: { type: 'failWithError', params: ({ event }) => ({ error: event.error }) },
        },
      },
      after: { SPEC_DEADLINE: { target: 'closed', actions: 'failTimeout' } },
      on: {
        CANCEL: {
          target: 'closed',
          actions: { type: 'failCancelled', params: ({ event }) => ({ reason: event.reason }) },
        },
      },
    },
    // Final: nothing to wipe; the outcome was decided on the edge into it.
    closed: { type: 'final', entry: 'teardown' },
  },
  output: ({ context }) =>
    context.outcome ?? {
      ok: false,
      error: new Error('specLoad reached its final state without an outcome'),
    },
});
