/** Every machine of the library, for diagrams (`npm run visualize`) and for the model checks. */
import type { AnyStateMachine } from 'xstate';
import { downloadMachine } from './download/download.machine.js';
import { listenMachine } from './listen/listen.machine.js';
import { mcpOperationMachine } from './mcp-operation/mcp-operation.machine.js';
import { mcpTaskMachine } from './mcp-task/mcp-task.machine.js';
import { openApiCallMachine } from './open-api-call/open-api-call.machine.js';
import { retryMachine } from './retry/retry.machine.js';
import { specLoadMachine } from './spec-load/spec-load.machine.js';
import { waitMachine } from './wait/wait.machine.js';

/** One registry entry: the file-name stem, the machine, and a one-line summary. */
export interface MachineRegistryEntry {
  /** Stem of the generated files (`visualizations/<name>.mmd`); kebab- or camel-case. */
  readonly name: string;
  /** The machine definition. */
  readonly machine: AnyStateMachine;
  /** One sentence for the visualizations index. */
  readonly summary: string;
}

/** The machines drawn in `visualizations/`, in index order. */
export const MACHINE_REGISTRY: readonly MachineRegistryEntry[] = [
  {
    name: 'mcp-operation',
    machine: mcpOperationMachine,
    summary:
      'One MCP client for one operation: credentials, then MCP 2026-07-28 (one POST) or the 2025-11-25 Streamable HTTP handshake with the legacy SSE fallback on 400/404/405 only, the request (resumable on 2025), and a teardown every path passes through (ADR 0180).',
  },
  {
    name: 'mcp-task',
    machine: mcpTaskMachine,
    summary:
      "One MCP task driven to its end inside the call that created it: polls tasks/get at the server's interval (clamped), answers its input rounds through the caller (tasks/update on 2026-07-28) or ends with tasks/result (2025-11-25), under a task deadline of its own, and sends one bounded tasks/cancel on abort, deadline or a broken answer (decision 0042).",
  },
  {
    name: 'listen',
    machine: listenMachine,
    summary:
      "One long-lived list-changed stream of an MCP connection for a live catalog: resolves the token, opens subscriptions/listen (MCP 2026-07-28) and waits for the server's acknowledgement under a deadline, tells the catalog once per burst of notifications, reconnects after a doubling backoff a bounded number of times in a row, and ends when the server offers no list changes or the catalog closes.",
  },
  {
    name: 'spec-load',
    machine: specLoadMachine,
    summary:
      'Loads an OpenAPI document from its URL: no credential, fenced to the spec host, redirects refused, bounded, JSON only, under the discovery deadline (ADR 0180).',
  },
  {
    name: 'open-api-call',
    machine: openApiCallMachine,
    summary:
      "One OpenAPI request: credentials placed as the operation's security says, the fenced request with its bounded answer, 401 as the reauthorization signal, under one deadline (ADR 0180).",
  },
  {
    name: 'retry',
    machine: retryMachine,
    summary:
      "A connection's opt-in retry policy around one operation: each attempt the operation's own machine run to its end, a wait (Retry-After, else a jittered backoff) only before an attempt that is safe and fits the deadline, and one deadline over them all.",
  },
  {
    name: 'wait',
    machine: waitMachine,
    summary:
      'Polls, then sleeps on a backoff schedule, until done, the overall deadline, or cancellation (ADR 0081).',
  },
  {
    name: 'download',
    machine: downloadMachine,
    summary:
      'Resolves the URL, fetches it through the guarded fetch under the header deadline, judges the head (status, declared size), then streams the body into the file boundary under the body deadline and the byte cap (ADR 0081).',
  },
];
