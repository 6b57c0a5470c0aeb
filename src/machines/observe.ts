/**
 * Transition observation: one record per state change of a machine run, built from the
 * root actor's snapshots and those of the machines it invokes (an MCP task's `mcpTask`). Records
 * carry state paths, event types and a task's id and status only, never payloads.
 */
import type { AnyActorRef, InspectionEvent, Observer, Subscription } from 'xstate';
import type { ConnectionPhase } from '../wire/index.js';

/**
 * One state change of one machine run.
 *
 * `from` and `to` are state paths: the keys of the state value joined by dots, without the machine
 * id (`polling`, `handshake.streamable`); parallel regions are listed in value order and joined by
 * `,` (`a.x,b.y`). The record of the start has `from: ''` and `event: 'xstate.init'`. `event` is
 * the event type only; payloads never reach a record.
 */
export interface TransitionRecord {
  /** The machine name (the run's `labels.machine`, else the machine id). */
  readonly machine: string;
  /** The connection the run belongs to, when the caller labelled it. */
  readonly connection?: string;
  /** The operation: the target state's `meta.operation` (nearest ancestor), else the run's label. */
  readonly operation?: string;
  /** The phase, when the caller labelled it. */
  readonly phase?: ConnectionPhase;
  /** The state path before the transition; `''` for the start. */
  readonly from: string;
  /** The state path after the transition. */
  readonly to: string;
  /** The type of the event that caused the transition. */
  readonly event: string;
  /** Wall-clock time of the record, in epoch milliseconds. */
  readonly at: number;
  /** Milliseconds since the run started (monotonic clock). */
  readonly elapsedMs: number;
  /**
   * The MCP task the call became, once it did: the server's task id and the status last seen
   * (`mcpTask`'s records, and `mcpOperation`'s from its `task` state on).
   */
  readonly task?: { readonly id: string; readonly status: string };
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** A host hook that receives every {@link TransitionRecord}; a throw is contained. */
export type TransitionObserver = (record: TransitionRecord) => void;

/** Whatever XState's `createActor(logic, { inspect })` accepts; it is handed over unchanged. */
export type InspectionObserver =
  | Observer<InspectionEvent>
  | ((inspectionEvent: InspectionEvent) => void);

/** Labels a caller attaches to every record of one run. */
export interface TransitionLabels {
  /** Overrides the machine id as the record's `machine`. */
  readonly machine?: string;
  /** The connection name. */
  readonly connection?: string;
  /** The phase. */
  readonly phase?: ConnectionPhase;
  /** The operation used when no active state carries `meta.operation`. */
  readonly operation?: string;
}

/**
 * Turns a state value into a state path: `'idle'` -> `idle`, `{ handshake: 'streamable' }` ->
 * `handshake.streamable`, parallel regions joined by `,`.
 */
export function toStatePath(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return '';
  const parts: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const rest = toStatePath(child);
    if (rest === '') {
      parts.push(key);
    } else {
      parts.push(...rest.split(',').map((leaf) => `${key}.${leaf}`));
    }
  }
  return parts.join(',');
}

/** The `meta.operation` of the deepest active state node that has one. */
export function operationFromMeta(meta: Record<string, unknown>): string | undefined {
  let best: { depth: number; operation: string } | undefined;
  for (const [id, value] of Object.entries(meta)) {
    const operation = (value as { operation?: unknown } | undefined)?.operation;
    if (typeof operation !== 'string') continue;
    const depth = id.split('.').length;
    if (best === undefined || depth > best.depth) best = { depth, operation };
  }
  return best?.operation;
}

interface SnapshotLike {
  readonly value: unknown;
  readonly context?: unknown;
  getMeta?(): Record<string, unknown>;
}

/**
 * Attaches a {@link TransitionObserver} to an actor's system before it starts: one record for the
 * start and one per change of the root's state value. A throwing observer is contained.
 */
export function attachTransitionObserver(
  actor: AnyActorRef,
  observe: TransitionObserver,
  labels: TransitionLabels & { readonly machine: string },
): Subscription {
  const startedAt = performance.now();
  // The last state path of the run and of each machine it invokes, by session.
  const previous = new Map<string, string>();
  return actor.system.inspect((inspection: InspectionEvent) => {
    if (inspection.type !== '@xstate.snapshot') return;
    const invoked = inspection.actorRef.sessionId !== inspection.rootId;
    const machineId = machineIdOf(inspection.actorRef);
    // Of the actors a run invokes only machines have states to record (a promise has none).
    if (invoked && machineId === undefined) return;
    const snapshot = inspection.snapshot as unknown as SnapshotLike;
    const to = toStatePath(snapshot.value);
    const session = inspection.actorRef.sessionId;
    if (to === previous.get(session)) return;
    const from = previous.get(session) ?? '';
    previous.set(session, to);
    const operation = operationFromMeta(snapshot.getMeta?.() ?? {}) ?? labels.operation;
    // Built key by key, in the documented order, leaving out the labels a run does not have
    // (no spread before a key on this per-transition path: docs/architecture.md, "Per-call
    // objects").
    const record = {
      machine: invoked ? (machineId as string) : labels.machine,
    } as Writable<TransitionRecord>;
    if (labels.connection !== undefined) record.connection = labels.connection;
    if (operation !== undefined) record.operation = operation;
    if (labels.phase !== undefined) record.phase = labels.phase;
    record.from = from;
    record.to = to;
    record.event = inspection.event.type;
    record.at = Date.now();
    record.elapsedMs = performance.now() - startedAt;
    const task = taskOf(snapshot.context);
    if (task !== undefined) record.task = task;
    try {
      observe(record);
    } catch {
      // A host hook must never change the outcome of the run it watches.
    }
  });
}

/** The id of the machine an actor runs, or `undefined` for an actor that is not a machine. */
function machineIdOf(actor: unknown): string | undefined {
  const logic = (actor as { readonly logic?: { readonly id?: unknown; readonly root?: unknown } })
    .logic;
  return logic?.root !== undefined && typeof logic.id === 'string' ? logic.id : undefined;
}

/** The task a run's context holds (`task: { taskId, status }`), as a record names it. */
function taskOf(context: unknown): TransitionRecord['task'] {
  const task = (context as { readonly task?: { taskId?: unknown; status?: unknown } } | undefined)
    ?.task;
  if (typeof task?.taskId !== 'string' || typeof task.status !== 'string') return undefined;
  return { id: task.taskId, status: task.status };
}
