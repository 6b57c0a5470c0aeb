/**
 * `mcpOperation`: one MCP client for one operation (ADR 0180). Credentials (when the connection
 * has a token provider), then one of three wires: the stateless request (MCP 2026-07-28: one POST,
 * no handshake), the session (the 2025-11-25 `initialize` over Streamable HTTP, falling back to
 * HTTP+SSE only on 400/404/405 of that first POST) or HTTP+SSE; the request (`tools/list`, page by
 * page, or `tools/call`), and a teardown every path passes through.
 *
 * This file composes the setup and holds the context and the lifecycle every wire shares:
 * `starting`, `credentials`, the three wire regions, and the teardown (`closing`, the cancellation
 * notice, the session's end, `closed`). Each wire region is a file of its own with its own actions
 * (`mcp-operation.stateless.ts`, `.session.ts`, `.sse.ts`); what two of them share (edge fragments,
 * actions, delays) is the glossary, `mcp-operation.edges.ts`. It is one chart at runtime, so the
 * model, the diagrams and every transition record see one machine. A state reads in at most four
 * files: its region (or this file), the glossary, the guards and the actors.
 */
import { emit, sendTo, setup } from 'xstate';
import { SESSION_REVISION, STATELESS_LOG_LEVEL } from '../../wire/index.js';
import { readSoFar } from '../bytes-read.js';
import { connectionFailureActions, reasonOf, type With } from '../connection-outcomes.js';
import { toCredentials } from '../credentials.js';
import type { McpTaskOutput } from '../mcp-task/mcp-task.types.js';
import { SecretValue } from '../secret-value.js';
import {
  deleteSessionInput,
  exchangeInput,
  makeMcpOperationActors,
  taskInput,
} from './mcp-operation.actors.js';
import {
  assignRun,
  beginStep,
  failOnError,
  handshakeDeadline,
  mcpOperationDelays,
  progressEventOf,
  sharedActions,
  type WithContext,
} from './mcp-operation.edges.js';
import { mcpOperationGuards } from './mcp-operation.guards.js';
import { cancelledMessage } from './mcp-operation.messages.js';
import {
  answeredState,
  INITIALIZE_ID,
  MAX_INPUT_ROUNDS,
  MAX_TOOL_LIST_PAGES,
  runScopeOf,
  taskBackstopMs,
} from './mcp-operation.policy.js';
import { sessionActions, sessionRegion } from './mcp-operation.session.js';
import { sseActions, sseRegion } from './mcp-operation.sse.js';
import { statelessActions, statelessRegion } from './mcp-operation.stateless.js';
import type {
  McpOperationContext,
  McpOperationEmitted,
  McpOperationEvent,
  McpOperationInput,
  McpOperationOutput,
} from './mcp-operation.types.js';

const tokenOf = ({ event }: With<{ readonly output: SecretValue | undefined }>) => ({
  token: event.output,
});
const transportTypeOf = ({ context }: WithContext) => ({ transportType: context.transportType });
const sessionOf = ({ context }: WithContext) => ({ sessionId: context.sessionId });
const abandonedOf = ({ context }: WithContext) => ({ abandoned: context.abandoned });

/** After the cancellation notice: end the session if there is one, else close. */
const afterCancelNotice = [
  { guard: { type: 'hasSession', params: sessionOf }, target: 'endingSession' },
  { target: 'closed' },
] as const;

/**
 * Where a run goes once its credential is known: from `starting` when there is nothing to resolve,
 * and from `credentials`, whose edges first assign the token. A connection told to speak legacy
 * SSE goes straight to its stream.
 */
const toTheWire = [
  // A retry that answers a task's questions resumes that task: no new call (decision 0051).
  {
    guard: {
      type: 'resumesTask',
      params: ({ context }: WithContext) => ({
        taskId: context.resumedTaskId,
        protocolChoice: context.protocolChoice,
        transportType: context.transportType,
      }),
    },
    target: 'task',
    actions: ['switchToStateless', 'beginRequest', 'assignResumedTask'],
  },
  {
    guard: {
      type: 'startsStateless',
      params: ({ context }: WithContext) => ({
        protocolChoice: context.protocolChoice,
        transportType: context.transportType,
      }),
    },
    target: 'stateless',
    actions: ['switchToStateless', 'beginRequest'],
  },
  {
    guard: { type: 'isSseOnly', params: transportTypeOf },
    target: 'sse',
    actions: ['switchToSse', beginStep('endpoint')],
  },
  { target: 'session', actions: [] },
] as const;

/** `mcpOperation`'s setup: every implementation by name (exported for tests that vary the chart). */
export const mcpOperationSetup = setup({
  types: {} as {
    context: McpOperationContext;
    events: McpOperationEvent;
    input: McpOperationInput;
    output: McpOperationOutput;
    emitted: McpOperationEmitted;
  },
  actors: makeMcpOperationActors(),
  guards: mcpOperationGuards,
  delays: mcpOperationDelays,
  actions: {
    // A failure's scope takes the bytes an answer in hand carries unreported.
    ...connectionFailureActions<McpOperationContext, McpOperationEvent>((context, event) =>
      runScopeOf(context, readSoFar(context, event)),
    ),
    // What two or more parts of the chart take (the glossary), then what each wire takes alone.
    ...sharedActions,
    ...sessionActions,
    ...sseActions,
    ...statelessActions,
    // The task's end is the call's: its result (with the wire the call spoke), or its failure.
    settleTask: assignRun(({ context }, params: { output: McpTaskOutput }) => ({
      outcome: params.output.ok
        ? {
            ok: true as const,
            result: params.output.result,
            transport: context.transport,
            protocolVersion: context.protocolVersion ?? SESSION_REVISION,
            tasksOffered: context.tasksOffered,
          }
        : { ok: false as const, error: params.output.error },
    })),
    // The caller's abort reaches the task, which cancels it on the server before it ends.
    forwardCancel: sendTo('driveTask', ({ event }) => event),
    // The run now ends by the task's backstop, not the request's window: whoever bounds it from
    // outside (a retry policy's deadline) is told.
    announceTaskDeadline: emit(({ context }) => ({
      type: 'deadline' as const,
      at: context.taskBackstopAt,
    })),
    assignToken: assignRun((_, params: { token: SecretValue | undefined }) => ({
      token: params.token,
    })),
    // Leaving each state already aborted its requests and stopped its stream reader; teardown
    // wipes the credential, session id, principal and caller relay, so no later holder can use
    // them.
    teardown: ({ context }) => {
      context.token?.wipe();
      context.sessionId?.wipe();
      context.principal?.wipe();
      context.relay?.wipe();
    },
  },
});

/** The `mcpOperation` machine. Provide its actors with `makeMcpOperationActors(deps)`. */
export const mcpOperationMachine = mcpOperationSetup.createMachine({
  id: 'mcpOperation',
  initial: 'starting',
  context: ({ input }) => {
    const context: McpOperationContext = {
      connectionName: input.connectionName,
      url: input.url,
      fence: input.fence,
      headers: input.headers,
      request: input.request,
      limits: input.limits,
      principal: input.principal === undefined ? undefined : new SecretValue(input.principal),
      relay: input.relay === undefined ? undefined : new SecretValue(input.relay),
      callerCapabilities: input.relay?.capabilities ?? {},
      logLevel: input.relay?.takesLogs === true ? STATELESS_LOG_LEVEL : undefined,
      maxListPages: input.maxListPages ?? MAX_TOOL_LIST_PAGES,
      maxInputRounds: input.maxInputRounds ?? MAX_INPUT_ROUNDS,
      transportType: input.transportType ?? 'auto',
      protocolChoice: input.protocolVersion ?? 'auto',
      discovered: input.discovered ?? false,
      switched: false,
      stateless: false,
      resolvesToken: input.resolvesToken ?? true,
      token: undefined,
      transport: 'streamable-http',
      fallbackStatus: undefined,
      endpoint: undefined,
      sessionId: undefined,
      sessionReopened: false,
      protocolVersion: undefined,
      handshakeDeadlineAt: Date.now() + input.limits.handshake.timeoutMs,
      requestDeadlineAt: 0,
      requestStartedAt: 0,
      operation: 'initialize',
      readBytes: 0,
      maxBytes: input.limits.handshake.maxResponseBytes,
      resumeAttempts: 0,
      lastEventId: undefined,
      retryMs: undefined,
      pendingId: INITIALIZE_ID,
      collected: undefined,
      cursor: undefined,
      page: 0,
      legacyAnswer: undefined,
      legacyAccepted: false,
      abandoned: undefined,
      inputRound: 0,
      defersInput: input.relay?.defersInput === true,
      handsTaskBack: input.relay?.acceptsTasks === true,
      // A retry that brings answers sends them, with the server's state, on its first request.
      inputRequired: answeredState(input.relay?.answered),
      inputResponses: input.relay?.answered?.inputResponses,
      resumedTaskId: input.relay?.answered?.taskId,
      task: undefined,
      taskBackstopAt: 0,
      tasksOffered: false,
      progressToken: input.progressToken,
      trace: input.trace,
      outcome: undefined,
    };
    // Copied once by a spread: the copy's shape is one V8 clones, so XState's
    // `Object.assign({}, context, update)` on every `assign` takes V8's clone fast path (decision
    // 0022; a literal starting with `...input` would put every key after a spread).
    return { ...context };
  },
  // The caller's abort, from any state: the outcome is its exact reason.
  on: {
    CANCEL: {
      target: '.closing',
      actions: [
        { type: 'failCancelled', params: reasonOf },
        { type: 'abandonRequest', params: { cause: 'cancelled' } },
      ],
    },
  },
  states: {
    // A connection with a token provider resolves its credential first; one without has nothing
    // to resolve and starts its wire at once.
    starting: {
      meta: { operation: 'initialize' },
      always: [toCredentials, ...toTheWire],
    },
    // Resolve this run's bearer token; the handshake deadline already runs.
    credentials: {
      meta: { operation: 'initialize' },
      invoke: {
        id: 'resolveCredentials',
        src: 'resolveCredentials',
        input: ({ context }) => ({
          principal: context.principal,
          scope: runScopeOf(context, context.readBytes),
        }),
        onDone: toTheWire.map((edge) => ({
          ...edge,
          actions: [{ type: 'assignToken' as const, params: tokenOf }, ...edge.actions],
        })),
        onError: failOnError,
      },
      after: handshakeDeadline,
    },
    // Streamable HTTP: every message is a POST to the connection URL (its own file).
    session: sessionRegion,
    // Legacy HTTP+SSE: one GET stream carries every answer (its own file).
    sse: sseRegion,
    // MCP 2026-07-28: one POST per request, no handshake, no session (its own file).
    stateless: statelessRegion,
    // The call became a task: `mcpTask` drives it to its end (polls, input rounds, the task
    // deadline, and `tasks/cancel` on the caller's abort). Its outcome is the call's.
    task: {
      meta: { operation: 'tools/call' },
      // Whoever bounds the run from outside (a retry policy's deadline) hears the task's.
      entry: 'announceTaskDeadline',
      invoke: {
        id: 'driveTask',
        src: 'driveTask',
        input: ({ context, self }) => taskInput(context, self),
        onDone: {
          target: 'closing',
          actions: {
            type: 'settleTask',
            params: ({ event }: With<{ readonly output: McpTaskOutput }>) => ({
              output: event.output,
            }),
          },
        },
        onError: failOnError,
      },
      after: {
        TASK_BACKSTOP: {
          target: 'closing',
          actions: {
            type: 'failTimeout',
            params: ({ context }: WithContext) => ({ timeoutMs: taskBackstopMs(context.limits) }),
          },
        },
      },
      on: {
        CANCEL: { actions: 'forwardCancel' },
        PROGRESS: { actions: { type: 'relayProgress', params: progressEventOf } },
      },
    },
    // The outcome is decided: close the standalone stream if one is held, then tell the server.
    closing: {
      entry: 'closeCallerStream',
      always: [
        {
          guard: { type: 'hasAbandonedRequest', params: abandonedOf },
          target: 'cancellingRequest',
        },
        { guard: { type: 'hasSession', params: sessionOf }, target: 'endingSession' },
        { target: 'closed' },
      ],
    },
    // Tell the server the abandoned request is cancelled (best effort, bounded), so its work stops.
    cancellingRequest: {
      meta: { operation: 'notifications/cancelled' },
      invoke: {
        id: 'postCancelled',
        src: 'exchange',
        input: ({ context, self }) =>
          exchangeInput(context, self, {
            method: 'POST',
            message: cancelledMessage(context.pendingId, context.abandoned),
          }),
        onDone: afterCancelNotice,
        onError: afterCancelNotice,
      },
      after: { SESSION_END_DEADLINE: afterCancelNotice },
      // The outcome is already decided; a late cancellation only abandons the cleanup.
      on: { CANCEL: { target: 'closed' } },
    },
    // DELETE the session, bounded; any answer or failure ends the run.
    endingSession: {
      invoke: {
        id: 'deleteSession',
        src: 'deleteSession',
        input: ({ context }) => deleteSessionInput(context),
        onDone: { target: 'closed' },
        onError: { target: 'closed' },
      },
      after: { SESSION_END_DEADLINE: { target: 'closed' } },
      // The outcome is already decided; a late cancellation only abandons the session cleanup.
      on: { CANCEL: { target: 'closed' } },
    },
    // Final: teardown wipes every secret the run held.
    closed: { type: 'final', entry: 'teardown' },
  },
  output: ({ context }) =>
    context.outcome ?? {
      ok: false,
      error: new Error('mcpOperation reached its final state without an outcome'),
    },
});
