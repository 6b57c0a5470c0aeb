/** `stitchkit-transport/machines`: the machines, their runner, observation and diagrams. */
export type { ConnectionPhase } from '../wire/index.js';
export { MACHINE_CATALOGUE, type MachineCatalogueEntry } from './catalogue.js';
export {
  type CredentialsInput,
  isUnauthorizedStatus,
  makeResolveCredentials,
  type PhaseLimits,
  type TokenResolver,
} from './credentials.js';
export { MAX_TIMER_MS, remainingMs } from './deadline.js';
export { describeEventType, toMermaid, toStatelySource } from './diagram.js';
export { OUTCOME_KINDS, teardownState } from './diagram-outcomes.js';
export { toOverviewDot } from './diagram-overview-dot.js';
export { toOverviewMermaid } from './diagram-overview-mermaid.js';
export { toTransitionTable } from './diagram-table.js';
export {
  type DownloadActorDependencies,
  type DownloadWriteOptions,
  makeDownloadActors,
} from './download.actors.js';
export { downloadGuards } from './download.guards.js';
export { downloadMachine } from './download.machine.js';
export {
  DEFAULT_DOWNLOAD_BODY_TIMEOUT_MS,
  DEFAULT_DOWNLOAD_HEADER_TIMEOUT_MS,
  DEFAULT_DOWNLOAD_MAX_BYTES,
  declaredBytesOf,
  downloadTarget,
  isProgressDue,
} from './download.policy.js';
export type {
  DownloadEvent,
  DownloadedFile,
  DownloadHead,
  DownloadMachineInput,
  DownloadMachineOutput,
  DownloadTransferInput,
  DownloadWriteCommand,
} from './download.types.js';
export {
  type ByteReporter,
  type McpOperationDependencies,
  makeMcpOperationActors,
} from './mcp-operation.actors.js';
export { mcpOperationGuards } from './mcp-operation.guards.js';
export { mcpOperationMachine } from './mcp-operation.machine.js';
export {
  DEFAULT_RESUME_DELAY_MS,
  INITIALIZE_ID,
  isFallbackStatus,
  MAX_RESUME_DELAY_MS,
  MAX_STREAM_RESUMPTIONS,
  MAX_TOOL_LIST_PAGES,
  REQUEST_ID,
  resumeDelayMs,
  SESSION_END_TIMEOUT_MS,
} from './mcp-operation.policy.js';
export type {
  McpOperationInput,
  McpOperationOutput,
  McpProgressEvent,
  McpRequest,
  McpRequestResult,
  McpToolList,
  McpTransportChoice,
  McpTransportKind,
} from './mcp-operation.types.js';
export {
  attachTransitionObserver,
  type InspectionObserver,
  operationFromMeta,
  type TransitionLabels,
  type TransitionObserver,
  type TransitionRecord,
  toStatePath,
} from './observe.js';
export {
  makeOpenApiCallActors,
  type OpenApiCallDependencies,
  sendRequestInput,
} from './open-api-call.actors.js';
export { openApiCallGuards } from './open-api-call.guards.js';
export { openApiCallMachine } from './open-api-call.machine.js';
export {
  CONTROL_CHARACTERS,
  decodeResponseBody,
  hasNoBody,
  isJsonMediaType,
  placeCredential,
} from './open-api-call.policy.js';
export type {
  CredentialPlacement,
  OpenApiCallInput,
  OpenApiCallOutput,
  OpenApiExchange,
  OpenApiMethod,
  OpenApiRequest,
} from './open-api-call.types.js';
export {
  type CancelEvent,
  type MachineOk,
  type MachineResult,
  type RunMachineOptions,
  runMachine,
} from './run-machine.js';
export { SecretValue, secretHeaders } from './secret-value.js';
export { makeSpecLoadActors, type SpecLoadDependencies } from './spec-load.actors.js';
export { specLoadGuards } from './spec-load.guards.js';
export { specLoadMachine } from './spec-load.machine.js';
export { decodeSpecText } from './spec-load.policy.js';
export type { SpecExchange, SpecLoadInput, SpecLoadOutput } from './spec-load.types.js';
export { makeWaitActors, type WaitActorDependencies, type WaitPollContext } from './wait.actors.js';
export { waitMachine } from './wait.machine.js';
export {
  backoffDelayMs,
  DEFAULT_WAIT_BACKOFF_SECONDS,
  DEFAULT_WAIT_TIMEOUT_MS,
  isSleepEndingAtDeadline,
  nextPollAt,
} from './wait.policy.js';
export type {
  WaitMachineInput,
  WaitMachineOutput,
  WaitPollInput,
  WaitPollOutput,
} from './wait.types.js';
export { WaitTimeoutError } from './wait-timeout-error.js';
