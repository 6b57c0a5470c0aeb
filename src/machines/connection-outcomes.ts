/**
 * The failures the machines decide alike: the two of every machine (an actor's failure, the
 * caller's abort), and those of every connection machine (`mcpOperation`, `openApiCall`,
 * `specLoad`), each building the typed error for the operation's scope and setting it as the run's
 * outcome. A machine spreads them into its setup, and its own failures (a byte ceiling, a fence, a
 * download's refusals) sit beside them.
 */
import { assign, type EventObject, type MachineContext } from 'xstate';
import {
  type AuthChallenge,
  ConnectionAuthorizationRequiredError,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionTimeoutError,
  type OperationScope,
} from '../wire/index.js';

/** A failed outcome, as every machine's context holds it. */
export function failed(error: unknown): {
  outcome: { readonly ok: false; readonly error: unknown };
} {
  return { outcome: { ok: false, error } };
}

/** A refused HTTP answer: its status, the excerpt of its body, and a 401's or 403's challenge. */
export interface RefusalParams {
  readonly status: number;
  readonly body: string;
  readonly challenge?: AuthChallenge | undefined;
  /** A 429's or 503's `Retry-After`, in ms. */
  readonly retryAfterMs?: number | undefined;
}

/** What a mapper reads of the event. */
export type With<T> = { readonly event: T };
/** What the charts' mappers read of an exchange: its kind, and the fields of the kinds below. */
type Answered = With<{
  readonly output: {
    readonly kind: string;
    readonly status?: number;
    readonly body?: string;
    readonly challenge?: AuthChallenge | undefined;
    readonly retryAfterMs?: number | undefined;
    readonly violation?: string;
  };
}>;

// Param mappers every connection chart uses, from the event in hand. Those of one kind of answer
// are taken only after the guard that selects it, so their fallbacks are never used.

/** How an actor's exchange ended, for the guards that judge it. */
export const exchangeOf = <T>({ event }: With<{ readonly output: T }>) => ({
  exchange: event.output,
});
/** An actor's failure, for `failWithError`. */
export const errorOf = ({ event }: With<{ readonly error: unknown }>) => ({ error: event.error });
/** The caller's abort reason, for `failCancelled`. */
export const reasonOf = ({ event }: With<{ readonly reason: unknown }>) => ({
  reason: event.reason,
});
/** A refused answer's status, body and challenge, for `failHttpStatus`. */
export const refusalOf = ({ event: { output } }: Answered): RefusalParams =>
  output.kind === 'http-error'
    ? {
        status: output.status ?? 0,
        body: output.body ?? '',
        challenge: output.challenge,
        retryAfterMs: output.retryAfterMs,
      }
    : { status: 0, body: '', challenge: undefined };
/** A refused answer's challenge, for `failUnauthorized`. */
export const challengeOf = ({ event: { output } }: Answered) => ({
  challenge: output.kind === 'http-error' ? output.challenge : undefined,
});
/** What a malformed answer broke, for `failProtocol`. */
export const violationOf = ({ event: { output } }: Answered) => ({
  violation: output.kind === 'malformed' ? (output.violation ?? '') : '',
});

/**
 * The edges every connection chart takes alike, into `target` (where its outcome is final). An
 * answer in hand, after the chart's own edges (a 401 first where it has one): a refused status,
 * then a malformed answer.
 */
export function refusedAnswerEdges<T extends string>(target: T) {
  return [
    {
      guard: { type: 'isHttpError', params: exchangeOf },
      target,
      actions: { type: 'failHttpStatus', params: refusalOf },
    },
    {
      guard: { type: 'isMalformed', params: exchangeOf },
      target,
      actions: { type: 'failProtocol', params: violationOf },
    },
  ] as const;
}
/** An actor's failure ends the run with that failure as its outcome. */
export function failOnActorError<T extends string>(target: T) {
  return { target, actions: { type: 'failWithError', params: errorOf } } as const;
}
/** The caller's abort, from any state, ends the run with its exact reason as the outcome. */
export function failOnCancel<T extends string>(target: T) {
  return { target, actions: { type: 'failCancelled', params: reasonOf } } as const;
}

/** The context every connection machine has: somewhere to put its outcome. */
type WithOutcome = MachineContext & { readonly outcome: unknown };

/**
 * The two failures every machine decides alike, connection or not: an actor's failure, and the
 * caller's abort with its exact reason (never converted).
 */
export function runFailureActions<TContext extends WithOutcome, TEvent extends EventObject>() {
  // The one cast: a failed outcome fits every machine's output, which TypeScript cannot see
  // through the generic context.
  const fail = (error: unknown) => failed(error) as unknown as Partial<TContext>;
  return {
    failWithError: assign<TContext, TEvent, { readonly error: unknown }, TEvent, never>(
      (_, params) => fail(params.error),
    ),
    failCancelled: assign<TContext, TEvent, { readonly reason: unknown }, TEvent, never>(
      (_, params) => fail(params.reason),
    ),
  };
}

/**
 * The shared failure actions of a connection machine, the two of every machine among them.
 * `scopeOf` gives the scope of the operation in progress once the event in hand is taken (an
 * answer may carry bytes not yet counted).
 */
export function connectionFailureActions<TContext extends WithOutcome, TEvent extends EventObject>(
  scopeOf: (context: TContext, event: unknown) => OperationScope,
) {
  const fail = (error: unknown) => failed(error) as unknown as Partial<TContext>;
  return {
    ...runFailureActions<TContext, TEvent>(),
    failUnauthorized: assign<
      TContext,
      TEvent,
      { readonly challenge: AuthChallenge | undefined },
      TEvent,
      never
    >(({ context, event }, params) =>
      fail(new ConnectionAuthorizationRequiredError({ ...scopeOf(context, event), ...params })),
    ),
    failHttpStatus: assign<TContext, TEvent, RefusalParams, TEvent, never>(
      ({ context, event }, params) =>
        fail(new ConnectionRequestError({ ...scopeOf(context, event), ...params })),
    ),
    failProtocol: assign<TContext, TEvent, { readonly violation: string }, TEvent, never>(
      ({ context, event }, params) =>
        fail(
          new ConnectionProtocolError({ ...scopeOf(context, event), violation: params.violation }),
        ),
    ),
    failTimeout: assign<TContext, TEvent, { readonly timeoutMs: number }, TEvent, never>(
      ({ context, event }, params) =>
        fail(
          new ConnectionTimeoutError({ ...scopeOf(context, event), timeoutMs: params.timeoutMs }),
        ),
    ),
  };
}
