/**
 * The invoked actors of `listen`: the credential resolver (no principal, as discovery) and the
 * long-lived stream. Dependencies (the token provider, the connection's sender) enter here.
 */
import { fromCallback, fromPromise } from 'xstate';
import type { WireSend } from '../../wire/index.js';
import { makeResolveCredentials, type TokenResolver } from '../credentials.js';
import { stopStream } from '../mcp-operation/mcp-operation.streams.js';
import { deleteListenSession, readLegacyStream, readSessionStream } from './listen.sessions.js';
import { readListenStream } from './listen.streams.js';
import type {
  ListenContext,
  ListenSession,
  ListenStreamEvent,
  ListenStreamInput,
} from './listen.types.js';

/** Input of the `deleteSession` actor: the stream's connection and the session it opened. */
export interface DeleteListenSessionInput {
  readonly stream: ListenStreamInput;
  readonly session: ListenSession;
}

/** What `listen` depends on: the connection's token provider and its sender (proxy, TLS). */
export interface ListenDependencies {
  readonly resolveToken?: TokenResolver;
  readonly send?: WireSend;
}

/** The `listenStream` actor's input, from the context. */
export function listenStreamInput({
  context,
}: {
  readonly context: ListenContext;
}): ListenStreamInput {
  return {
    wire: context.wire,
    scope: context.scope,
    url: context.url,
    fence: context.fence,
    headers: context.headers,
    token: context.token,
    maxFrameBytes: context.maxFrameBytes,
  };
}

/** The `deleteSession` actor's input: taken only while the context holds a session. */
export function deleteSessionInput({
  context,
}: {
  readonly context: ListenContext;
}): DeleteListenSessionInput | undefined {
  const { session } = context;
  return session === undefined ? undefined : { stream: listenStreamInput({ context }), session };
}

/** `listen`'s actors, by the names its chart uses. */
export function makeListenActors(deps: ListenDependencies = {}) {
  const { send } = deps;
  return {
    /** Resolves the stream's bearer token, with no principal. */
    resolveCredentials: makeResolveCredentials(deps.resolveToken),

    /** The list-changed stream, reported message by message; stopping it aborts the request. */
    listenStream: fromCallback<ListenStreamEvent, ListenStreamInput>(({ input, sendBack }) => {
      const controller = new AbortController();
      const { signal } = controller;
      const read =
        input.wire === 'stateless'
          ? readListenStream
          : input.wire === 'session'
            ? readSessionStream
            : readLegacyStream;
      read(input, signal, sendBack, send).catch((error: unknown) => {
        if (signal.aborted) return;
        const failure = error instanceof Error ? error : new Error(String(error));
        sendBack({ type: 'STREAM_FAILED', failure: { error: failure } });
      });
      return () => stopStream(controller);
    }),

    /** Ends the session a 2025 stream opened; stopping it aborts the `DELETE`. */
    deleteSession: fromPromise<void, DeleteListenSessionInput | undefined>(({ input, signal }) =>
      input === undefined
        ? Promise.resolve()
        : deleteListenSession(input.stream, input.session, signal, send),
    ),
  };
}
