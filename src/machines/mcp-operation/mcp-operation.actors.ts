/**
 * The I/O of the `mcpOperation` machine, as named actors, with the input builders that map the
 * machine's context onto each actor's input. Each actor performs one exchange and reports what
 * happened; the machine's guards decide what it means. Every actor stops promptly when XState
 * aborts its signal (a deadline fired, the caller cancelled, or the state was left).
 * Dependencies (the token resolver, the HTTP sender) enter once, through {@link makeMcpOperationActors}.
 * The two long-lived streams are read in `mcp-operation.streams.ts`, and what the stream actors
 * answer the server in `mcp-operation.server-requests.ts`.
 */
import { fromCallback, fromPromise } from 'xstate';
import { SESSION_REVISION, STATELESS_REVISION, type WireSend } from '../../wire/index.js';
import { DEFAULT_TASK_TIMEOUT_MS, taskKnownBy } from '../../wire/mcp/tasks.js';
import { bytesReadCounter } from '../bytes-read.js';
import { makeResolveCredentials, type TokenResolver } from '../credentials.js';
import { makeMcpTaskActors } from '../mcp-task/mcp-task.actors.js';
import { mcpTaskMachine } from '../mcp-task/mcp-task.machine.js';
import type { McpTaskInput, TaskProgress } from '../mcp-task/mcp-task.types.js';
import { type ByteReporter, type ExchangeInput, runExchange } from './mcp-operation.exchange.js';
import { requestProgressToken } from './mcp-operation.messages.js';
import { runScopeOf } from './mcp-operation.policy.js';
import { type AnswerInputInput, answerInputRequests } from './mcp-operation.server-requests.js';
import {
  type CallerStreamInput,
  deleteStreamableSession,
  type LegacyStreamInput,
  readCallerStream,
  readLegacyStream,
  reportGrowth,
  stopStream,
} from './mcp-operation.streams.js';
import type {
  ActorBase,
  McpOperationContext,
  McpOperationEvent,
  RpcExchange,
} from './mcp-operation.types.js';

export type { ByteReporter, ExchangeInput } from './mcp-operation.exchange.js';

/** What the actors depend on; both have defaults, so the bare machine runs without a token. */
export interface McpOperationDependencies {
  /** Resolves a run's bearer token from its principal; default: no token. */
  readonly resolveToken?: TokenResolver;
  /** Sends every request; default the wire's own (undici on one shared keep-alive pool). */
  readonly send?: WireSend;
}
/** Input of the `deleteSession` actor. */
export interface DeleteSessionInput {
  /** What every actor of the run shares. */
  readonly base: ActorBase;
  readonly url: string;
}

/** The scope, fence and headers of the operation in progress (secrets still wrapped). */
function actorBase(context: McpOperationContext): ActorBase {
  return {
    scope: runScopeOf(context),
    fence: context.fence,
    headers: {
      staticHeaders: context.headers,
      token: context.token,
      sessionId: context.sessionId,
      protocolVersion: context.protocolVersion,
      trace: context.trace,
    },
    relay: context.relay,
    callerCapabilities: context.callerCapabilities,
  };
}

/** The input of an `exchange` actor for the operation in progress, to the run's own URL. */
export function exchangeInput(
  context: McpOperationContext,
  self: ByteReporter,
  shape: Pick<ExchangeInput, 'method' | 'message' | 'expectId' | 'lastEventId' | 'stateless'>,
): ExchangeInput {
  return {
    base: actorBase(context),
    // The legacy wire posts to the announced endpoint; the Streamable one to the connection URL.
    url: context.endpoint ?? context.url,
    reporter: self,
    maxBytes: context.maxBytes,
    alreadyRead: context.readBytes,
    ...(context.progressToken === undefined ? {} : { progressToken: context.progressToken }),
    ...shape,
  };
}

/**
 * The input of the `legacyStream` actor, opened while the operation is `endpoint`. Per-operation
 * budgets are enforced by the machine (`exceedsReadBudget`); the stream only bounds one frame.
 */
export function legacyStreamInput(context: McpOperationContext): LegacyStreamInput {
  return {
    base: actorBase(context),
    url: context.url,
    maxFrameBytes: Math.max(
      context.limits.handshake.maxResponseBytes,
      context.limits.request.maxResponseBytes,
    ),
    maxErrorBytes: context.limits.handshake.maxResponseBytes,
  };
}

/**
 * The input of the `callerStream` actor, spawned once the handshake is done. Its frames are bounded
 * like the request's; its bytes count toward the operation in progress (`exceedsReadBudget`).
 */
export function callerStreamInput(context: McpOperationContext): CallerStreamInput {
  const progressToken = requestProgressToken(context.request, context.progressToken);
  return {
    base: actorBase(context),
    url: context.url,
    maxFrameBytes: context.limits.request.maxResponseBytes,
    maxAnswerBytes: context.limits.handshake.maxResponseBytes,
    ...(progressToken === undefined ? {} : { progressToken }),
  };
}

/** The input of the `answerInputRequests` actor: what the server asks in the round in progress. */
export function answerInputInput(context: McpOperationContext): AnswerInputInput {
  return {
    base: actorBase(context),
    inputRequests: context.inputRequired?.inputRequests ?? {},
  };
}

/**
 * The input of the `driveTask` actor (the `mcpTask` machine) for the task the call's answer
 * created: the call's base and URL, each request's limits and the task deadline, and the run
 * itself as where status and progress go.
 */
export function taskInput(
  context: McpOperationContext,
  self: { send(event: TaskProgress): void },
): McpTaskInput {
  let open = true;
  return {
    revision: context.stateless ? STATELESS_REVISION : SESSION_REVISION,
    // Entered only after `createsTask`, which saw the task.
    created: context.task ?? taskKnownBy('', 'working'),
    base: actorBase(context),
    url: context.url,
    limits: {
      request: context.limits.request,
      task: { timeoutMs: context.limits.task?.timeoutMs ?? DEFAULT_TASK_TIMEOUT_MS },
    },
    maxInputRounds: context.maxInputRounds,
    progressTo: {
      send: (event) => {
        if (open) self.send(event);
      },
      close: () => {
        open = false;
      },
    },
    firstRequestId: context.pendingId + 1,
    ...(context.progressToken === undefined ? {} : { progressToken: context.progressToken }),
    // A resumed task gets the caller's answers first (decision 0051).
    ...(context.resumedTaskId === undefined || context.inputResponses === undefined
      ? {}
      : { resumeWith: context.inputResponses }),
  };
}

/** The input of the `deleteSession` actor that ends a stateful session. */
export function deleteSessionInput(context: McpOperationContext): DeleteSessionInput {
  return { base: actorBase(context), url: context.url };
}
/** Builds the named actors of `mcpOperation`; pass them to `mcpOperationMachine.provide`. */
export function makeMcpOperationActors(deps: McpOperationDependencies = {}) {
  // `undefined` lets the wire use its default sender: one home for that default.
  const { send } = deps;
  return {
    /** Resolves this run's bearer token for its principal. */
    resolveCredentials: makeResolveCredentials(deps.resolveToken),

    /** One HTTP exchange with the server: a POST (JSON or SSE answer) or a resuming GET. */
    exchange: fromPromise<RpcExchange, ExchangeInput>(({ input, signal }) =>
      runExchange(input, signal, send),
    ),

    /** The legacy HTTP+SSE stream, reported event by event to the machine. */
    legacyStream: fromCallback<McpOperationEvent, LegacyStreamInput>(({ input, sendBack }) => {
      const controller = new AbortController();
      const { signal } = controller;
      const counter = bytesReadCounter(signal, reportGrowth(sendBack));
      readLegacyStream(input, signal, sendBack, send, counter).catch((error: unknown) => {
        // What the failing chunk held is read too: reported before the failure.
        counter.reportUnreported();
        if (!signal.aborted) sendBack({ type: 'STREAM_FAILED', error });
      });
      return () => stopStream(controller);
    }),

    /** The standalone GET stream held for a relaying or progress-listening call, reported to the machine. */
    callerStream: fromCallback<McpOperationEvent, CallerStreamInput>(({ input, sendBack }) => {
      const controller = new AbortController();
      const { signal } = controller;
      readCallerStream(input, signal, sendBack, send).catch(() => {
        // A failed stream only stops relaying on it; the call goes on (and fails on its own).
        if (!signal.aborted) sendBack({ type: 'CALLER_STREAM_CLOSED' });
      });
      return () => stopStream(controller);
    }),

    /** Drives the task a `tools/call` answer created to its end (the `mcpTask` machine). */
    driveTask: mcpTaskMachine.provide({ actors: makeMcpTaskActors({ send }) }),

    /** Asks the call's caller what the server asks in an `input_required` round. */
    answerInputRequests: fromPromise<Readonly<Record<string, unknown>>, AnswerInputInput>(
      ({ input, signal }) => answerInputRequests(input, signal),
    ),

    /** Ends a stateful Streamable HTTP session with `DELETE`; any answer is accepted (405 too). */
    deleteSession: fromPromise<void, DeleteSessionInput>(({ input, signal }) =>
      deleteStreamableSession(input.base, new URL(input.url), signal, send),
    ),
  };
}
