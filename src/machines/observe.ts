/**
 * Transition observation: one record per state change of a machine run, built from the
 * root actor's snapshots. Records carry state paths and event types only, never payloads.
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
  let previous: string | undefined;
  return actor.system.inspect((inspection: InspectionEvent) => {
    if (inspection.type !== '@xstate.snapshot') return;
    if (inspection.actorRef.sessionId !== inspection.rootId) return;
    const snapshot = inspection.snapshot as unknown as SnapshotLike;
    const to = toStatePath(snapshot.value);
    if (to === previous) return;
    const from = previous ?? '';
    previous = to;
    const operation = operationFromMeta(snapshot.getMeta?.() ?? {}) ?? labels.operation;
    // Built key by key, in the documented order, leaving out the labels a run does not have
    // (no spread before a key on this per-transition path: docs/architecture.md, "Per-call
    // objects").
    const record = { machine: labels.machine } as Writable<TransitionRecord>;
    if (labels.connection !== undefined) record.connection = labels.connection;
    if (operation !== undefined) record.operation = operation;
    if (labels.phase !== undefined) record.phase = labels.phase;
    record.from = from;
    record.to = to;
    record.event = inspection.event.type;
    record.at = Date.now();
    record.elapsedMs = performance.now() - startedAt;
    try {
      observe(record);
    } catch {
      // A host hook must never change the outcome of the run it watches.
    }
  });
}
