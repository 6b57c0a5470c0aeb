/**
 * `specLoad`: loads an OpenAPI document from its URL under the discovery deadline (ADR 0180).
 * No credential is sent, the URL is fenced to its own host plus `allowHosts`, redirects are
 * refused, the body is bounded, and only a JSON object is a document.
 */
import { assign, setup } from 'xstate';
import { operationScope } from '../../wire/index.js';
import {
  connectionFailureActions,
  failOnActorError,
  failOnCancel,
  refusedAnswerEdges,
} from '../connection-outcomes.js';
import { fetchSpecInput, makeSpecLoadActors } from './spec-load.actors.js';
import { specLoadGuards } from './spec-load.guards.js';
import type {
  SpecExchange,
  SpecLoadContext,
  SpecLoadEvent,
  SpecLoadInput,
  SpecLoadOutput,
} from './spec-load.types.js';

type ExchangeDone = { readonly event: { readonly output: SpecExchange } };

// Taken only after the guards that select the other kinds, so the fallback is never used.
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
    // The load's scope; it counts no bytes of its own (the bounded reader refuses past the cap).
    ...connectionFailureActions<SpecLoadContext, SpecLoadEvent>((context) =>
      operationScope(context.connectionName, 'openapi/spec'),
    ),
    succeed: assign((_, params: { document: Record<string, unknown> }) => ({
      outcome: { ok: true as const, document: params.document },
    })),
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
  // The caller's abort, from any state: the outcome is its exact reason.
  on: { CANCEL: failOnCancel('.closed') },
  states: {
    // GET the document: fenced, no credential, redirects refused, bounded, under the deadline.
    fetching: {
      meta: { operation: 'openapi/spec' },
      invoke: {
        id: 'fetchSpec',
        src: 'fetchSpec',
        input: ({ context }) => fetchSpecInput(context),
        onDone: [
          ...refusedAnswerEdges('closed'),
          { target: 'closed', actions: { type: 'succeed', params: documentOf } },
        ],
        onError: failOnActorError('closed'),
      },
      after: {
        SPEC_DEADLINE: {
          target: 'closed',
          actions: {
            type: 'failTimeout',
            params: ({ context }) => ({ timeoutMs: context.limits.timeoutMs }),
          },
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
