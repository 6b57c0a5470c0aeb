/**
 * `listen` (issue 47, decision 0047): one long-lived list-changed stream of an MCP connection,
 * held for a live catalog. It resolves the token (no principal), opens the stream and waits for
 * the server's acknowledgement under a deadline, then tells its sink once per burst of
 * notifications; a dropped stream is opened again after a backoff, a bounded number of times in
 * a row; a server that offers no list changes ends it. `CANCEL` (the catalog closing) ends it
 * from anywhere, and leaving `streaming` stops the stream. A 2025-11-25 session the stream opened
 * is ended with a bounded `DELETE` before the next connect and before the end.
 */
import { assign, setup } from 'xstate';
import { operationScope } from '../../wire/index.js';
import { connectionFailureActions, errorOf, reasonOf } from '../connection-outcomes.js';
import { toCredentials } from '../credentials.js';
import type { SecretValue } from '../secret-value.js';
import { deleteSessionInput, listenStreamInput, makeListenActors } from './listen.actors.js';
import { listenGuards } from './listen.guards.js';
import {
  DEFAULT_LISTEN_DEBOUNCE_MS,
  DEFAULT_LISTEN_MAX_FAILURES,
  LISTEN_SESSION_END_MS,
  listenOperationOf,
  reconnectDelayMs,
} from './listen.policy.js';
import type {
  ListenContext,
  ListenEvent,
  ListenFailure,
  ListenInput,
  ListenOutput,
  ListenSession,
} from './listen.types.js';

type Failed = { readonly event: { readonly failure: ListenFailure } };
const failureOf = ({ event }: Failed) => ({ failure: event.failure });
const failureErrorOf = ({ event }: Failed) => ({ error: event.failure.error });
const failuresOf = ({ context }: { readonly context: ListenContext }) => ({
  failures: context.failures,
  maxFailures: context.maxFailures,
});
const openedOf = ({ context }: { readonly context: ListenContext }) => ({
  opened: context.opened,
});
const sessionOf = ({ context }: { readonly context: ListenContext }) => ({
  session: context.session,
});
const firstEventOf = ({ context }: { readonly context: ListenContext }) => ({
  timeoutMs: context.firstEventMs,
});

/**
 * The first-event deadline passed (the token provider, or the server's acknowledgement, took too
 * long): a failed connect, counted as one.
 */
const firstEventMissed = [
  {
    guard: { type: 'hasFailuresLeft', params: failuresOf },
    target: '#listen.reconnecting',
    actions: 'recordFailure',
  },
  { target: '#listen.closing', actions: { type: 'failTimeout', params: firstEventOf } },
] as const;

/**
 * The way on from a stopped stream: through `ending` (its session's `DELETE`) when it opened a
 * session, else straight to `next`.
 */
const endsSessionThen = (ending: string, next: string) =>
  [
    { guard: { type: 'holdsSession', params: sessionOf }, target: ending },
    { target: next },
  ] as const;

/** `DELETE` the stopped stream's session, bounded; any answer, failure or the deadline goes to `next`. */
const endingSession = (next: string) =>
  ({
    invoke: {
      id: 'deleteSession',
      src: 'deleteSession',
      input: deleteSessionInput,
      onDone: { target: next },
      onError: { target: next },
    },
    after: { SESSION_END_DEADLINE: { target: next } },
    exit: 'forgetSession',
  }) as const;

/** `listen`'s setup: every implementation by name. */
export const listenSetup = setup({
  types: {} as {
    input: ListenInput;
    context: ListenContext;
    events: ListenEvent;
    output: ListenOutput;
  },
  actors: makeListenActors(),
  guards: listenGuards,
  actions: {
    ...connectionFailureActions<ListenContext, ListenEvent>((context) => context.scope),
    recordToken: assign((_, params: { readonly token: SecretValue | undefined }) => ({
      token: params.token,
    })),
    recordOpened: assign(({ context }) => ({ opened: context.opened + 1, failures: 0 })),
    recordFailure: assign(({ context }) => ({ failures: context.failures + 1 })),
    recordSession: assign((_, params: { readonly session: ListenSession }) => ({
      session: params.session,
    })),
    // Ended (or given up): a later connect opens a session of its own.
    forgetSession: assign({ session: undefined }),
    announceChange: assign(({ context }) => {
      context.sink.changed();
      return { changes: context.changes + 1 };
    }),
    succeed: assign(({ context }) => ({
      outcome: { ok: true, offered: false, changes: context.changes } as const,
    })),
    // The stream is stopped, and the timers cancelled, by leaving their states; the named hook
    // keeps the shared teardown invariant.
    teardown: () => {},
  },
  delays: {
    FIRST_EVENT_DEADLINE: ({ context }) => context.firstEventMs,
    DEBOUNCE: ({ context }) => context.debounceMs,
    RECONNECT_BACKOFF: ({ context }) => reconnectDelayMs(context.failures),
    SESSION_END_DEADLINE: LISTEN_SESSION_END_MS,
  },
});

/** The `listen` machine; provide its actors with `makeListenActors`. */
export const listenMachine = listenSetup.createMachine({
  id: 'listen',
  context: ({ input }) => ({
    wire: input.wire,
    scope: operationScope(input.connectionName, listenOperationOf(input.wire)),
    url: input.url,
    fence: input.fence,
    headers: input.headers,
    resolvesToken: input.resolvesToken,
    firstEventMs: input.firstEventMs,
    debounceMs: input.debounceMs ?? DEFAULT_LISTEN_DEBOUNCE_MS,
    maxFailures: input.maxFailures ?? DEFAULT_LISTEN_MAX_FAILURES,
    maxFrameBytes: input.maxFrameBytes,
    sink: input.sink,
    token: undefined,
    failures: 0,
    opened: 0,
    changes: 0,
    session: undefined,
    outcome: undefined,
  }),
  initial: 'starting',
  // The catalog closing, from any state: the outcome is its exact reason.
  on: { CANCEL: { target: '.closing', actions: { type: 'failCancelled', params: reasonOf } } },
  states: {
    // Each connect resolves the token again: a provider may rotate it between connects.
    starting: { always: [toCredentials, { target: 'streaming' }] },
    // The token provider, called with no principal (as discovery calls it).
    credentials: {
      invoke: {
        id: 'resolveCredentials',
        src: 'resolveCredentials',
        input: ({ context }) => ({ principal: undefined, scope: context.scope }),
        onDone: {
          target: 'streaming',
          actions: { type: 'recordToken', params: ({ event }) => ({ token: event.output }) },
        },
        onError: { target: 'closing', actions: { type: 'failWithError', params: errorOf } },
      },
      after: { FIRST_EVENT_DEADLINE: firstEventMissed },
    },
    // The stream is open for as long as the machine is here; leaving stops it.
    streaming: {
      invoke: { id: 'stream', src: 'listenStream', input: listenStreamInput },
      initial: 'connecting',
      on: {
        STREAM_ENDED: { target: 'reconnecting' },
        STREAM_FAILED: [
          {
            // The server offers no list changes: the stream ends well, having nothing to tell.
            guard: { type: 'isUnoffered', params: failureOf },
            target: 'closing',
            actions: 'succeed',
          },
          {
            guard: { type: 'hasFailuresLeft', params: failuresOf },
            target: 'reconnecting',
            actions: 'recordFailure',
          },
          { target: 'closing', actions: { type: 'failWithError', params: failureErrorOf } },
        ],
        // A 2025 stream's own session: ended once the stream stops.
        SESSION_OPENED: {
          actions: { type: 'recordSession', params: ({ event }) => ({ session: event.session }) },
        },
      },
      states: {
        // Until the server acknowledges the subscription, under the first-event deadline.
        connecting: {
          on: {
            // An end before the acknowledgement is a failed connect, counted as one.
            STREAM_ENDED: [
              {
                guard: { type: 'hasFailuresLeft', params: failuresOf },
                target: '#listen.reconnecting',
                actions: 'recordFailure',
              },
              {
                target: '#listen.closing',
                actions: {
                  type: 'failProtocol',
                  params: { violation: 'ended subscriptions/listen before acknowledging it' },
                },
              },
            ],
            OPENED: [
              {
                // Changes may have been missed while the stream was down: the catalog relists.
                guard: { type: 'isReopened', params: openedOf },
                target: 'listening',
                actions: ['recordOpened', 'announceChange'],
              },
              { target: 'listening', actions: 'recordOpened' },
            ],
          },
          after: { FIRST_EVENT_DEADLINE: firstEventMissed },
        },
        // Listening; a notification opens a window that gathers the burst into one change.
        listening: {
          initial: 'quiet',
          states: {
            quiet: { on: { CHANGED: 'settling' } },
            settling: { after: { DEBOUNCE: { target: 'quiet', actions: 'announceChange' } } },
          },
        },
      },
    },
    // The stream dropped: end the session it opened, if any, wait the backoff, connect again.
    reconnecting: {
      initial: 'leaving',
      states: {
        leaving: { always: endsSessionThen('endingSession', 'waiting') },
        endingSession: endingSession('waiting'),
        waiting: { after: { RECONNECT_BACKOFF: '#listen.starting' } },
      },
    },
    // The outcome is decided: end the stream's session, if it opened one, then close.
    closing: { always: endsSessionThen('endingSession', 'closed') },
    // The session's `DELETE`, then the end. The outcome is already decided; a late cancellation
    // only abandons the session's end.
    endingSession: { ...endingSession('closed'), on: { CANCEL: { target: 'closed' } } },
    // Final: the outcome was decided on the edge into it (none for a stream that simply stopped).
    closed: { type: 'final', entry: 'teardown' },
  },
  output: ({ context }) =>
    context.outcome ?? {
      ok: false,
      error: new Error('listen reached its final state without an outcome'),
    },
});
