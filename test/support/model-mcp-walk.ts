/**
 * The models of `mcpOperation` by name, and the harness that walks one on the real actor: every
 * I/O actor deferred until the walk settles it with the model's case, and the stream actors
 * silent (the walk sends their events itself).
 */
import { vi } from 'vitest';
import { type AnyStateMachine, fromCallback } from 'xstate';
import { mcpOperationMachine } from '../../src/machines/mcp-operation/mcp-operation.machine.js';
import { deferredActors } from './model-deferred.js';
import type { ModelOptions } from './model-graph.js';
import {
  mcpAutoModelOptions,
  mcpDiscoveredModelOptions,
  mcpListModelOptions,
  mcpModelOptions,
  mcpRelayModelOptions,
  mcpSseModelOptions,
  mcpStatelessDeferringModelOptions,
  mcpStatelessListModelOptions,
  mcpStatelessModelOptions,
  mcpStatelessResumingModelOptions,
  mcpStatelessTaskTakingModelOptions,
  mcpStreamableOnlyModelOptions,
  mcpTokenlessModelOptions,
} from './model-mcp-operation.js';
import type { WalkHarness } from './model-walk.js';

const rpcResult = (id: number, result: unknown) => ({ jsonrpc: '2.0', id, result });
const sseCases = mcpSseModelOptions.eventCases ?? {};

/**
 * Stream messages past the operation's byte ceiling that a legacy state's own rows would take if
 * its budget row did not come first: the `initialize` answer, and a progress notice.
 */
const OVERSIZED_MESSAGES = [
  {
    type: 'SSE_MESSAGE',
    bytes: 1_000_000,
    message: rpcResult(1, {
      protocolVersion: '2025-11-25',
      capabilities: {},
      serverInfo: { name: 's', version: '1' },
    }),
  },
  {
    type: 'SSE_MESSAGE',
    bytes: 1_000_000,
    message: {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 2, progress: 1, total: 2 },
    },
  },
];

/** The models below the shared ones: what no other model starts from or sends. */
const EXTRA_MODELS: readonly { readonly name: string; readonly options: ModelOptions }[] = [
  {
    name: 'tools/call, protocol 2026-07-28, no token provider',
    options: {
      ...mcpStatelessModelOptions,
      input: { ...(mcpStatelessModelOptions.input as object), resolvesToken: false },
    },
  },
  {
    name: 'tools/call, transport sse, no token provider',
    options: {
      ...mcpSseModelOptions,
      input: { ...(mcpSseModelOptions.input as object), resolvesToken: false },
    },
  },
  {
    name: 'tools/call, transport sse, oversized stream messages',
    options: {
      ...mcpSseModelOptions,
      eventCases: {
        ...sseCases,
        SSE_MESSAGE: [...(sseCases.SSE_MESSAGE ?? []), ...OVERSIZED_MESSAGES],
      },
    },
  },
];

/** Every model of `mcpOperation`, named as its section of `mcp-operation.edges.txt`. */
export const MCP_MODELS: readonly { readonly name: string; readonly options: ModelOptions }[] = [
  { name: 'tools/call', options: mcpModelOptions },
  { name: 'tools/call, no token provider', options: mcpTokenlessModelOptions },
  { name: 'tools/list', options: mcpListModelOptions },
  { name: 'tools/call, transport sse', options: mcpSseModelOptions },
  { name: 'tools/call, transport streamable-http', options: mcpStreamableOnlyModelOptions },
  {
    name: 'tools/call relaying to a caller that can sample, transport streamable-http',
    options: mcpRelayModelOptions,
  },
  { name: 'tools/call, protocol 2026-07-28', options: mcpStatelessModelOptions },
  {
    name: 'tools/call, protocol 2026-07-28, a caller that answers by a retry',
    options: mcpStatelessDeferringModelOptions,
  },
  {
    name: 'tools/call, protocol 2026-07-28, a caller that takes tasks',
    options: mcpStatelessTaskTakingModelOptions,
  },
  {
    name: 'tools/call, protocol 2026-07-28, a retry that resumes a task',
    options: mcpStatelessResumingModelOptions,
  },
  { name: 'tools/list, protocol 2026-07-28', options: mcpStatelessListModelOptions },
  { name: 'tools/call, auto (the stateless POST first)', options: mcpAutoModelOptions },
  {
    name: 'tools/call, a 2025 revision that may be contradicted once',
    options: mcpDiscoveredModelOptions,
  },
  ...EXTRA_MODELS,
];

/** `mcpOperation` (or a defective copy) ready to walk the model `options`. */
export function mcpWalkHarness(
  options: ModelOptions,
  definition: AnyStateMachine = mcpOperationMachine,
): WalkHarness {
  const deferred = deferredActors(options);
  return {
    machine: definition.provide({
      actors: {
        resolveCredentials: deferred.actor,
        exchange: deferred.actor,
        answerInputRequests: deferred.actor,
        deleteSession: deferred.actor,
        driveTask: deferred.actor,
        // Stream events are sent to the machine by the walk itself.
        legacyStream: fromCallback(() => () => {}),
        callerStream: fromCallback(() => () => {}),
      },
    } as never),
    options: {
      ...options,
      beforePath: () => {
        deferred.clear();
        vi.setSystemTime(0);
      },
      executors: deferred.executors,
    },
  };
}
