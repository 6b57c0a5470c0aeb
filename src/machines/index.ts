/**
 * `stitchkit-transport/machines`: the machines, their runner and observer, each machine's
 * input and output types, and the factories of their actors. Policy constants, guards and helpers
 * stay internal; the diagrams are `stitchkit-transport/diagrams`.
 */
export type { ConnectionPhase, PhaseLimits } from '../wire/index.js';
export type { TokenResolver } from './credentials.js';
export {
  type DownloadActorDependencies,
  type DownloadWriteOptions,
  makeDownloadActors,
} from './download/download.actors.js';
export { downloadMachine } from './download/download.machine.js';
export type {
  DownloadedFile,
  DownloadHead,
  DownloadMachineInput,
  DownloadMachineOutput,
} from './download/download.types.js';
export { type ListenDependencies, makeListenActors } from './listen/listen.actors.js';
export { listenMachine } from './listen/listen.machine.js';
export type { ListenInput, ListenOutput, ListenSink } from './listen/listen.types.js';
export {
  type McpOperationDependencies,
  makeMcpOperationActors,
} from './mcp-operation/mcp-operation.actors.js';
export { mcpOperationMachine } from './mcp-operation/mcp-operation.machine.js';
export type {
  McpOperationInput,
  McpOperationOutput,
  McpProgressEvent,
  McpProtocolChoice,
  McpRequest,
  McpRequestResult,
  McpToolList,
  McpTransportChoice,
  McpTransportKind,
} from './mcp-operation/mcp-operation.types.js';
export {
  attachTransitionObserver,
  type InspectionObserver,
  type TransitionLabels,
  type TransitionObserver,
  type TransitionRecord,
} from './observe.js';
export {
  makeOpenApiCallActors,
  type OpenApiCallDependencies,
} from './open-api-call/open-api-call.actors.js';
export { openApiCallMachine } from './open-api-call/open-api-call.machine.js';
export type { OpenApiCallInput, OpenApiCallOutput } from './open-api-call/open-api-call.types.js';
export { MACHINE_REGISTRY, type MachineRegistryEntry } from './registry.js';
export { makeRetryActors } from './retry/retry.actors.js';
export { retryMachine } from './retry/retry.machine.js';
export type { RetryInput, RetryOutput, RunAttempt } from './retry/retry.types.js';
export {
  type CancelEvent,
  type MachineOk,
  type MachineResult,
  type RunMachineOptions,
  runMachine,
} from './run-machine.js';
export { SecretValue } from './secret-value.js';
export { makeSpecLoadActors, type SpecLoadDependencies } from './spec-load/spec-load.actors.js';
export { specLoadMachine } from './spec-load/spec-load.machine.js';
export type { SpecLoadInput, SpecLoadOutput } from './spec-load/spec-load.types.js';
export {
  makeWaitActors,
  type WaitActorDependencies,
  type WaitPollContext,
} from './wait/wait.actors.js';
export { waitMachine } from './wait/wait.machine.js';
export type { WaitMachineInput, WaitMachineOutput } from './wait/wait.types.js';
