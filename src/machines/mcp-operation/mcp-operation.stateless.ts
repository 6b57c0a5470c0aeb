/**
 * The stateless region of `mcpOperation` (MCP 2026-07-28, "stateless MCP"): no handshake and no
 * session; the request is one POST whose `_meta` carries the protocol version, the capabilities
 * the caller declared and this client's identity, with `MCP-Protocol-Version`, `Mcp-Method` and
 * `Mcp-Name` beside it. Its answer is JSON or an SSE stream of the request's own notifications,
 * read under the same bounds as on the 2025 wire; a broken stream is not resumed, and cancelling
 * closes the request (no `notifications/cancelled`, no `DELETE`). The name says what the wire is,
 * not its date: a later revision without a session keeps it. The actions only this wire takes are
 * at the end (`statelessActions`). A state of this region reads here, in the glossary
 * (`mcp-operation.edges.ts`), the guards and the actors.
 */

import {
  ConnectionInputRequiredError,
  ConnectionProtocolError,
  ConnectionTaskCreatedError,
  type InputRequired,
  type RpcErrorBody,
  rpcRefusalViolation,
} from '../../wire/index.js';
import { type TaskSnapshot, taskKnownBy } from '../../wire/mcp/tasks.js';
import { readSoFar } from '../bytes-read.js';
import { exchangeOf, failed, type With } from '../connection-outcomes.js';
import { answerInputInput, exchangeInput } from './mcp-operation.actors.js';
import {
  answerOf,
  assignRun,
  beginStep,
  bytesReadEdges,
  CLOSING,
  type ExchangeDone,
  exchangePageOf,
  failOnError,
  failProtocolOn,
  httpError,
  pageOutcomes,
  requestDeadline,
  requestWindow,
  supportedOf,
  switchOf,
  taskCreated,
  unauthorized,
  type WithContext,
  type WithSelf,
} from './mcp-operation.edges.js';
import {
  type AnsweredInput,
  requestNameOf,
  requestParamHeadersOf,
  statelessRequestMessage,
} from './mcp-operation.messages.js';
import { runScopeOf } from './mcp-operation.policy.js';
import type { McpOperationContext, RpcExchange } from './mcp-operation.types.js';

// Taken only after `isRpcRefusal`, so the fallback is never used.
const rpcRefusalOf = ({ event }: ExchangeDone) =>
  event.output.kind === 'http-error' && event.output.rpcError !== undefined
    ? { status: event.output.status, rpcError: event.output.rpcError }
    : { status: 0, rpcError: { code: 0, message: '' } };

const inputRoundOf = ({ context, event }: WithContext & ExchangeDone) => ({
  exchange: event.output,
  round: context.inputRound,
  maxRounds: context.maxInputRounds,
  defers: context.defersInput,
});
const taskHandBackOf = ({ context, event }: WithContext & ExchangeDone) => ({
  exchange: event.output,
  handsBack: context.handsTaskBack,
});
// Taken only after `handsTaskBack`, which saw the task, so the fallback is never used.
const createdTaskOf = ({ event }: ExchangeDone) => ({
  task:
    (event.output.kind === 'response' ? event.output.task : undefined) ??
    taskKnownBy('', 'working'),
});
// Taken only after `asksForInput`, so the fallback is never used.
const inputRequiredOf = ({ event }: ExchangeDone) => ({
  inputRequired: (event.output.kind === 'response' ? event.output.inputRequired : undefined) ?? {
    inputRequests: {},
  },
});

/** The answers of the last round and the server's state, once a round was answered. */
function answeredOf(context: McpOperationContext): AnsweredInput | undefined {
  return context.inputResponses === undefined
    ? undefined
    : {
        inputResponses: context.inputResponses,
        requestState: context.inputRequired?.requestState,
      };
}

/** The stateless wire: one POST per request, no handshake, no session. */
export const statelessRegion = {
  initial: 'requesting',
  on: bytesReadEdges,
  states: {
    // POST the request with its envelope; the answer is JSON or an SSE stream on the POST.
    requesting: {
      invoke: {
        id: 'postStatelessRequest',
        src: 'exchange',
        input: ({ context, self }: WithSelf) => {
          const name = requestNameOf(context.request);
          const params = requestParamHeadersOf(context.request);
          return exchangeInput(context, self, {
            method: 'POST',
            message: statelessRequestMessage(
              context.request,
              context.pendingId,
              context.cursor,
              {
                progressToken: context.progressToken,
                capabilities: context.callerCapabilities,
                logLevel: context.logLevel,
                trace: context.trace,
              },
              answeredOf(context),
            ),
            expectId: context.pendingId,
            stateless: {
              mcpMethod: context.request.method,
              ...(name === undefined ? {} : { mcpName: name }),
              ...(params === undefined ? {} : { mcpParams: params }),
            },
          });
        },
        onDone: [
          unauthorized,
          // Answered as a 2025 server answers: speak 2025-11-25, starting with its handshake.
          {
            guard: { type: 'isSessionServer', params: switchOf },
            target: '#mcpOperation.session',
            actions: ['markSwitched', 'switchToSession', beginStep('initialize')],
          },
          {
            guard: { type: 'offersSessionRevision', params: switchOf },
            target: '#mcpOperation.session',
            actions: ['markSwitched', 'switchToSession', beginStep('initialize')],
          },
          {
            guard: { type: 'isUntypedAnswer', params: switchOf },
            target: '#mcpOperation.session',
            actions: ['markSwitched', 'switchToSession', beginStep('initialize')],
          },
          // A -32022 naming this very revision: the server asks for one corrective retry.
          {
            guard: { type: 'offersStatelessRetry', params: switchOf },
            target: 'requesting',
            reenter: true,
            actions: ['markSwitched', 'nextRequestId'],
          },
          {
            guard: { type: 'isUnsupportedVersion', params: exchangeOf<RpcExchange> },
            target: CLOSING,
            actions: { type: 'failUnsupportedVersion', params: supportedOf },
          },
          // The server asks a caller that answers by a retry of the whole call: end with the
          // questions (a gateway answers its own client `input_required`).
          {
            guard: { type: 'asksForDeferredInput', params: inputRoundOf },
            target: CLOSING,
            actions: { type: 'failInputDeferred', params: inputRequiredOf },
          },
          // The server asks the caller first: answer the round, then send the request again.
          {
            guard: { type: 'asksForInput', params: inputRoundOf },
            target: 'answeringInput',
            actions: { type: 'assignInputRequired', params: inputRequiredOf },
          },
          {
            guard: { type: 'asksForInputPastLimit', params: inputRoundOf },
            ...failProtocolOn('asked for client input in more rounds than a call answers'),
          },
          {
            guard: { type: 'isRpcRefusal', params: exchangeOf<RpcExchange> },
            target: CLOSING,
            actions: { type: 'failRpcRefusal', params: rpcRefusalOf },
          },
          httpError,
          ...pageOutcomes(exchangePageOf, answerOf, true),
          // The caller takes the task itself (a gateway relaying it to its client): the run ends
          // with the task, which runs on upstream; no `tasks/cancel` is sent.
          {
            guard: { type: 'handsTaskBack', params: taskHandBackOf },
            target: CLOSING,
            actions: { type: 'failTaskHandedBack', params: createdTaskOf },
          },
          taskCreated,
          {
            guard: { type: 'isResponse', params: exchangeOf<RpcExchange> },
            target: CLOSING,
            actions: { type: 'succeed', params: answerOf },
          },
          failProtocolOn('ended the MCP exchange without a response'),
        ],
        onError: failOnError,
      },
      ...requestWindow,
    },
    // Ask the call's caller what the server asks (elicitation, sampling, roots), under the call's
    // deadline; its answers go with the retry.
    answeringInput: {
      invoke: {
        id: 'answerInputRequests',
        src: 'answerInputRequests',
        input: ({ context }: WithContext) => answerInputInput(context),
        onDone: {
          target: 'requesting',
          actions: {
            type: 'assignInputResponses',
            params: ({ event }: With<{ readonly output: Readonly<Record<string, unknown>> }>) => ({
              responses: event.output,
            }),
          },
        },
        onError: failOnError,
      },
      after: requestDeadline,
    },
  },
} as const;

/** The actions only the stateless wire takes, spread into the setup of `mcpOperation`. */
export const statelessActions = {
  // Back to the 2025 handshake, which negotiates its own version.
  switchToSession: assignRun({ stateless: false, protocolVersion: undefined }),
  // A retry of the same request is a new request: a new JSON-RPC id.
  nextRequestId: assignRun(({ context }) => ({ pendingId: context.pendingId + 1 })),
  // The server asks before it completes: one more round, its byte count kept. Only a stateless
  // server sends `input_required`, so the revision is settled: the run no longer switches.
  assignInputRequired: assignRun(
    ({ context, event }, params: { inputRequired: InputRequired }) => ({
      inputRequired: params.inputRequired,
      inputRound: context.inputRound + 1,
      readBytes: readSoFar(context, event),
      switched: true,
    }),
  ),
  // Asked on behalf of a caller that answers by a retry: the run ends with the questions.
  failInputDeferred: assignRun(({ context, event }, params: { inputRequired: InputRequired }) =>
    failed(
      new ConnectionInputRequiredError({
        ...runScopeOf(context, readSoFar(context, event)),
        ...params.inputRequired,
      }),
    ),
  ),
  // The caller takes the task itself: the run ends with it (decision 0050).
  failTaskHandedBack: assignRun(({ context, event }, params: { task: TaskSnapshot }) =>
    failed(
      new ConnectionTaskCreatedError({
        ...runScopeOf(context, readSoFar(context, event)),
        task: params.task,
      }),
    ),
  ),
  // The caller answered: the retry carries the answers under a new id.
  assignInputResponses: assignRun(
    ({ context }, params: { responses: Readonly<Record<string, unknown>> }) => ({
      inputResponses: params.responses,
      pendingId: context.pendingId + 1,
    }),
  ),
  // A 4xx whose body is a JSON-RPC error: the server's refusal, relayed as it said it.
  failRpcRefusal: assignRun(
    ({ context, event }, params: { status: number; rpcError: RpcErrorBody }) =>
      failed(
        new ConnectionProtocolError({
          ...runScopeOf(context, readSoFar(context, event)),
          violation: rpcRefusalViolation(params.status, params.rpcError),
          rpcCode: params.rpcError.code,
          rpcMessage: params.rpcError.message,
          ...(params.rpcError.data === undefined ? {} : { rpcData: params.rpcError.data }),
        }),
      ),
  ),
};
