/**
 * The edge set of a model walk (docs/architecture.md, "Invariants"): one line per edge the real
 * actor took, `source --event--> target [outcome]`, and the definition's transitions no walk took.
 *
 * - `source` and `target` are model vertices: the state value as a dotted path (`a.b`, parallel
 *   regions as `(a.b|c.d)`), then the vertex's abstracted facts in braces (`{!session,pagesLeft=1}`:
 *   a true flag bare, a false one with `!`, other values `key=value`; `outcome=<class>` once the
 *   run decided it); a final vertex is its state alone, its facts being the outcome. A target
 *   that is the source vertex again reads `(self)`.
 * - `event` reads as in the transition tables (`done(poll)`, `error(poll)`, `after POLL_DEADLINE`,
 *   `CANCEL`), then what the model's case carries as compact JSON (an error as `Name: message`),
 *   then `[guard]`: the guard of the row that decided it, when that row has one.
 * - `outcome` is what the target holds: `none` while nothing is decided; `ok` (with the output's
 *   true flags, `ok timedOut`); `cancelled` for the caller's reason; else the error's `code`, or
 *   its class name when it has none.
 *
 * A transition of the definition is named as its table row: `<state path|(root)> <event> #<n>`,
 * `#n` counting from 1 in the order XState tries the event's rows, and `[guard]` when it has one.
 */
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine, AnyStateNode } from 'xstate';
import { describeEventType, guardName, stateNodes, statePath } from '../../src/diagrams/walk.js';

/** A transition definition as XState reports it to an inspector (`@xstate.microstep`). */
interface TakenTransition {
  readonly source: AnyStateNode;
  readonly eventType: string;
}

function valuePath(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return String(value);
  const regions = Object.entries(value).map(([key, child]) => {
    const rest = valuePath(child);
    return rest === '' ? key : `${key}.${rest}`;
  });
  return regions.length === 1 ? (regions[0] ?? '') : `(${regions.join('|')})`;
}

function factOf(key: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === true) return key;
  if (value === false) return `!${key}`;
  return `${key}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`;
}

/**
 * A vertex as the edge set writes it, from its key (the JSON a model's `serializeState` makes) and
 * its snapshot: the `status` and `outcome` facts of the key give way to the outcome class, which
 * a final vertex leaves to the line's `[outcome]` and a vertex still running shows as
 * `outcome=<class>` once its context decided one.
 */
export function vertexLabel(key: string, snapshot: AnyMachineSnapshot): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    return key;
  }
  if (typeof parsed !== 'object' || parsed === null || !('value' in parsed)) return key;
  const { value, status: _status, outcome: _outcome, ...facts } = parsed as Record<string, unknown>;
  const path = valuePath(value);
  if (snapshot.status === 'done') return path;
  const decided = outcomeClass(snapshot);
  const written = [
    ...Object.entries(facts).map(([name, fact]) => factOf(name, fact)),
    decided === 'none' ? undefined : `outcome=${decided}`,
  ].filter((fact): fact is string => fact !== undefined);
  return written.length === 0 ? path : `${path}{${written.join(',')}}`;
}

function stringify(payload: unknown): string {
  return JSON.stringify(payload, (_, value: unknown) =>
    value instanceof Error ? `${value.name}: ${value.message}` : value,
  );
}

const delayOwners = new WeakMap<AnyStateMachine, ReadonlyMap<string, AnyStateNode>>();

/** The state node whose `after` schedules `eventType`, looked up once per machine. */
function delayOwner(machine: AnyStateMachine, eventType: string): AnyStateNode | undefined {
  let owners = delayOwners.get(machine);
  if (owners === undefined) {
    const map = new Map<string, AnyStateNode>();
    for (const node of [machine.root, ...stateNodes(machine)]) {
      for (const after of node.after) map.set(after.eventType, node);
    }
    owners = map;
    delayOwners.set(machine, owners);
  }
  return owners.get(eventType);
}

/**
 * The event of a model edge as the edge set writes it: the table's label, then what it carries
 * (an actor's output or error as it is, any other event's fields as an object).
 */
export function eventLabel(machine: AnyStateMachine, event: AnyEventObject): string {
  const owner = delayOwner(machine, event.type) ?? machine.root;
  const label = describeEventType(owner, event.type);
  const { type: _type, ...fields } = event;
  const carried = event.type.startsWith('xstate.done.actor.')
    ? fields.output
    : event.type.startsWith('xstate.error.actor.')
      ? fields.error
      : Object.keys(fields).length === 0
        ? undefined
        : fields;
  if (carried === undefined) return label;
  return `${label} ${carried instanceof Error ? `${carried.name}: ${carried.message}` : stringify(carried)}`;
}

/** The outcome a snapshot holds: its output once final, else the outcome its context decided. */
export function outcomeClass(snapshot: AnyMachineSnapshot): string {
  const outcome = (
    snapshot.status === 'done'
      ? snapshot.output
      : (snapshot.context as { outcome?: unknown } | undefined)?.outcome
  ) as { readonly ok?: unknown; readonly error?: unknown } | undefined;
  if (outcome === undefined) return 'none';
  if (outcome.ok === true) {
    const flags = Object.entries(outcome)
      .filter(([name, value]) => name !== 'ok' && value === true)
      .map(([name]) => name);
    return ['ok', ...flags].join(' ');
  }
  const { error } = outcome;
  // The caller's abort keeps its reason as it is (never an error of ours).
  if (!(error instanceof Error)) return 'cancelled';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error.name;
}

/** The target of an edge that stays in its vertex (a self-loop). */
export const SELF = '(self)';

/** One step of a walk: the vertices before and after it, and the event that took it. */
export interface WalkedStep {
  readonly sourceKey: string;
  readonly source: AnyMachineSnapshot;
  readonly event: AnyEventObject;
  readonly targetKey: string;
  readonly target: AnyMachineSnapshot;
}

/**
 * The guards of the rows that decide `event` in `snapshot` (the first row of each active region
 * whose guard passes): which branch of the chart an edge takes, where its target alone may not
 * tell (a deadline extended or not, the same outcome by another rule).
 */
export function decidingGuards(
  machine: AnyStateMachine,
  snapshot: AnyMachineSnapshot,
  event: AnyEventObject,
): string[] {
  const rows = machine.getTransitionData(snapshot as never, event as never);
  const names = rows.map((row) => guardName(row)).filter((name) => name !== undefined);
  return [...new Set(names)] as string[];
}

/** One line of the edge set. */
export function edgeLine(machine: AnyStateMachine, step: WalkedStep): string {
  const source = vertexLabel(step.sourceKey, step.source);
  const target =
    step.targetKey === step.sourceKey ? SELF : vertexLabel(step.targetKey, step.target);
  const guards = decidingGuards(machine, step.source, step.event);
  const decided = guards.length === 0 ? '' : ` [${guards.join(',')}]`;
  return `${source} --${eventLabel(machine, step.event)}${decided}--> ${target} [${outcomeClass(step.target)}]`;
}

/** The node's name in a transition table: its dotted path, or `(root)`. */
function nodeName(node: AnyStateNode): string {
  return node.parent === undefined ? '(root)' : statePath(node);
}

/** The name of one transition of the definition, as its row in the transition table. */
export function transitionName(node: AnyStateNode, eventType: string, index: number): string {
  const rows = eventType === '' ? (node.always ?? []) : (node.transitions.get(eventType) ?? []);
  const guard = rows[index] === undefined ? undefined : guardName(rows[index]);
  return `${nodeName(node)} ${describeEventType(node, eventType)} #${index + 1}${guard === undefined ? '' : ` [${guard}]`}`;
}

/** The name of a transition an inspector reported as taken. */
export function takenTransitionName(transition: TakenTransition): string {
  const { source, eventType } = transition;
  const rows = eventType === '' ? (source.always ?? []) : (source.transitions.get(eventType) ?? []);
  return transitionName(source, eventType, rows.indexOf(transition as never));
}

/** Every transition of the definition by name, in table order. */
export function definitionTransitions(machine: AnyStateMachine): string[] {
  return [machine.root, ...stateNodes(machine)].flatMap((node) => {
    const names: string[] = [];
    for (const [eventType, rows] of node.transitions) {
      rows.forEach((_, index) => {
        names.push(transitionName(node, eventType, index));
      });
    }
    (node.always ?? []).forEach((_, index) => {
      names.push(transitionName(node, '', index));
    });
    return names;
  });
}

/** The transitions of the definition no walk took, in table order. */
export function untakenTransitions(machine: AnyStateMachine, taken: ReadonlySet<string>): string[] {
  return definitionTransitions(machine).filter((name) => !taken.has(name));
}
