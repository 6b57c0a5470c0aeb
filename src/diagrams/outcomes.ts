/**
 * What a transition decides, for the overview diagrams: the outcome kind a reader names it by
 * (`401`, `timeout`, `ok`), whether it is a failure, and the teardown state failures run into.
 * Pure: derived from guard and action names only.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { actionNames, allTransitions, childNodes, guardName, stateNodes } from './walk.js';

/** The outcome kind of a successful run. */
export const SUCCESS_KIND = 'ok';

/**
 * Outcome kind by implementation name. Actions name the outcome; a guard listed here refines it
 * (an actor error that is a size failure reads `size`, not `error`). One table for every machine.
 */
export const OUTCOME_KINDS: Readonly<Record<string, string>> = {
  succeed: SUCCESS_KIND,
  // A task's end is the call's: drawn on the happy path (its failures are the task machine's).
  settleTask: SUCCESS_KIND,
  failUnauthorized: '401',
  failHttpStatus: 'HTTP error',
  failProtocol: 'protocol',
  failRpcRefusal: 'refusal',
  failUnsupportedVersion: 'version',
  failInputDeferred: 'input asked',
  // The caller takes the upstream's task itself (a gateway relaying it, decision 0050).
  failTaskHandedBack: 'task handed back',
  failTimeout: 'timeout',
  failWithWaitTimeout: 'timeout',
  timeOutWithState: 'timeout',
  failTooLarge: 'size',
  isSizeFailure: 'size',
  isUrlRefusal: 'redirect',
  exceedsReadBudget: 'size',
  failNotFound: 'not found',
  failWithError: 'error',
  failEndpointOutsideFence: 'fence',
  failCancelled: 'cancel',
  // MCP tasks (mcpTask): why the task ended the call.
  failRefused: 'HTTP error',
  failTaskFailed: 'task failed',
  failTaskResultError: 'task failed',
  // A task's question to a caller that answers only by a retry of the call.
  failDeferredTaskInput: 'input asked',
  failServerCancelled: 'task cancelled',
  failTaskGone: 'task lost',
  failTaskDeadline: 'timeout',
  failRequestDeadline: 'timeout',
};

/** Actions not in the table that still end a run in failure, shown under their own name. */
const UNLISTED_FAILURE = /^(fail|cancel)[A-Z]/;

function listedKind(name: string | undefined): string | undefined {
  return name !== undefined && Object.hasOwn(OUTCOME_KINDS, name) ? OUTCOME_KINDS[name] : undefined;
}

/** The transition's outcome kind from the table (guard first, then actions), if it has one. */
export function outcomeKind(transition: AnyTransitionDefinition): string | undefined {
  const actions = actionNames(transition);
  return (
    listedKind(guardName(transition)) ??
    actions.map(listedKind).find((kind) => kind !== undefined) ??
    actions.find((name) => UNLISTED_FAILURE.test(name))
  );
}

/** Whether the transition ends the run in failure: its outcome is a kind other than `ok`. */
export function isFailure(transition: AnyTransitionDefinition): boolean {
  const kind = outcomeKind(transition);
  return kind !== undefined && kind !== SUCCESS_KIND;
}

/** The first final child of the root, if the machine has one. */
function finalState(machine: AnyStateMachine): AnyStateNode | undefined {
  return childNodes(machine.root).find((node) => node.type === 'final');
}

/**
 * The teardown state: the target most failure transitions run into (the root's own count once);
 * on a tie a final state, else the earlier state in document order; with no failures, the final
 * state.
 */
export function teardownState(machine: AnyStateMachine): AnyStateNode | undefined {
  const counts = new Map<AnyStateNode, number>();
  for (const node of [machine.root, ...stateNodes(machine)]) {
    for (const transition of allTransitions(node)) {
      if (!isFailure(transition)) continue;
      for (const target of transition.target ?? []) {
        counts.set(target, (counts.get(target) ?? 0) + 1);
      }
    }
  }
  let best: AnyStateNode | undefined;
  for (const node of stateNodes(machine)) {
    const count = counts.get(node) ?? 0;
    const bestCount = best === undefined ? 0 : (counts.get(best) ?? 0);
    // A final state wins a tie: failures that split evenly end where the run ends.
    if (count > bestCount || (count > 0 && count === bestCount && node.type === 'final')) {
      best = node;
    }
  }
  return best ?? finalState(machine);
}
