/**
 * Deferred actors for model walks: an actor that waits until the walk settles it with the model's
 * case (`xstate.done.actor.<id>` resolves it with the case's output, `xstate.error.actor.<id>`
 * rejects it with its error), keyed by the invoke id. The harnesses of `mcpOperation` and
 * `mcpTask` share it.
 */
import { type AnyEventObject, fromPromise } from 'xstate';
import type { ModelOptions } from './model-graph.js';
import type { WalkExecutor } from './model-walk.js';

/** The deferred actor, the executors that settle it, and a reset for each path. */
export interface DeferredActors {
  readonly actor: ReturnType<typeof fromPromise<unknown, unknown>>;
  readonly executors: Record<string, WalkExecutor>;
  clear(): void;
}

/** Deferred actors for every `done`/`error` event type the model's cases name. */
export function deferredActors(options: ModelOptions): DeferredActors {
  const pending = new Map<
    string,
    { resolve(value: unknown): void; reject(error: unknown): void }
  >();
  const actor = fromPromise<unknown, unknown>(
    ({ self }) =>
      new Promise((resolve, reject) => {
        pending.set(self.id, { resolve, reject });
      }),
  );
  const settle =
    (kind: 'done' | 'error'): WalkExecutor =>
    ({ event }: { event: AnyEventObject }) => {
      const id = event.type.replace(`xstate.${kind}.actor.`, '');
      const entry = pending.get(id);
      if (entry === undefined) throw new Error(`no pending actor ${id}`);
      if (kind === 'done') entry.resolve((event as { output?: unknown }).output);
      else entry.reject((event as { error?: unknown }).error);
    };
  const executors: Record<string, WalkExecutor> = {};
  for (const type of Object.keys(options.eventCases ?? {})) {
    if (type.startsWith('xstate.done.actor.')) executors[type] = settle('done');
    if (type.startsWith('xstate.error.actor.')) executors[type] = settle('error');
  }
  return { actor, executors, clear: () => pending.clear() };
}
