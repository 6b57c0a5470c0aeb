/**
 * Fault injection for the closed-world tables (decision 0035): every error class undici exports
 * (enumerated at run time, so a class a later undici adds is planted too), `HPE_*` parser errors,
 * and a plain `Error`, a `TypeError` and a value that is not an `Error`; planted into one exchange
 * of a real request to a real server on 127.0.0.1, through an undici interceptor on the
 * connection's own dispatcher. The server answers for real; the interceptor hands the client's
 * handler the planted error instead of the answer's head (`head`) or in place of its body (`body`).
 */
import { Agent, DecoratorHandler, type Dispatcher, errors as undiciErrors } from 'undici';
import {
  type AnyRuntimeToolDefinition,
  runTool,
  toolCauseFromResult,
} from '../../src/binding/index.js';
import { ConnectionNetworkError, ConnectionOperationError } from '../../src/connections/index.js';

/** Where the planted error replaces the answer: before its head, or in its body. */
export type FaultStage = 'head' | 'body';

/** One request as the interceptor sees it. */
export interface DispatchedRequest {
  readonly method: string;
  readonly path: string;
  /** The JSON-RPC method of a JSON body, when it has one. */
  readonly rpcMethod: string | undefined;
}

/** One planted error: a label for the tables and a maker (each run gets a fresh one). */
export interface PlantedError {
  readonly label: string;
  readonly make: () => unknown;
}

/** The class of typed failure a planted error must end in. */
export type ExpectedFault =
  | { readonly kind: 'protocol' }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'network'; readonly failure: string };

/** The HTTP parser's codes planted as `HTTPParserError`s, each with its own message. */
const PARSER_ERRORS: readonly (readonly [string, string])[] = [
  ['HPE_INVALID_EOF_STATE', 'Invalid EOF state'],
  ['HPE_INVALID_CONSTANT', 'Expected HTTP/'],
  ['HPE_UNEXPECTED_CONTENT_LENGTH', 'Unexpected content-length header'],
  ['HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size'],
];

type ErrorClass = new (message?: string, ...rest: unknown[]) => unknown;

/**
 * An instance of `Class`: with a message alone, or, for the classes that also destructure a
 * status and a record of response facts (`ResponseError`, `RequestRetryError`), with those too.
 */
function constructed(Class: ErrorClass): unknown {
  try {
    return new Class('planted');
  } catch {
    return new Class('planted', 500, { headers: {} });
  }
}

/**
 * Every error to plant: each class of `undici.errors` (named by its export), the parser errors
 * with their `HPE_*` codes, a plain `Error`, a `TypeError` and a string.
 */
export function plantedErrors(): readonly PlantedError[] {
  const classes = Object.entries(undiciErrors as unknown as Record<string, ErrorClass>).map(
    ([label, Class]) => ({ label, make: () => constructed(Class) }),
  );
  const HTTPParserError = undiciErrors.HTTPParserError as unknown as new (
    message: string,
    code: string,
    data: Buffer,
  ) => Error;
  const parser = PARSER_ERRORS.map(([code, reason]) => ({
    label: code,
    make: () =>
      new HTTPParserError(
        `Response does not match the HTTP/1.1 protocol (${reason})`,
        code,
        Buffer.from('planted'),
      ),
  }));
  return [
    ...classes,
    ...parser,
    { label: 'Error', make: () => new Error('planted') },
    { label: 'TypeError', make: () => new TypeError('planted') },
    { label: 'a string', make: () => 'planted' },
  ];
}

/**
 * The typed failure each planted error must end in, written as the contract says it (not read
 * from the implementation): a known network code keeps its failure, an HTTP-level fault is a
 * protocol failure, a head past its bound is too large, everything else is a network failure the
 * client does not recognise (`other`). A label missing here is still planted and must end typed.
 */
export const EXPECTED_FAULTS: Readonly<Record<string, ExpectedFault>> = {
  HTTPParserError: { kind: 'protocol' },
  ResponseContentLengthMismatchError: { kind: 'protocol' },
  ResponseExceededMaxSizeError: { kind: 'protocol' },
  ResponseError: { kind: 'protocol' },
  HPE_INVALID_EOF_STATE: { kind: 'protocol' },
  HPE_INVALID_CONSTANT: { kind: 'protocol' },
  HPE_UNEXPECTED_CONTENT_LENGTH: { kind: 'protocol' },
  HPE_INVALID_CHUNK_SIZE: { kind: 'protocol' },
  HeadersOverflowError: { kind: 'too-large' },
  SocketError: { kind: 'network', failure: 'closed' },
  ClientClosedError: { kind: 'network', failure: 'closed' },
  AbortError: { kind: 'network', failure: 'other' },
  UndiciError: { kind: 'network', failure: 'other' },
  HeadersTimeoutError: { kind: 'network', failure: 'other' },
  BodyTimeoutError: { kind: 'network', failure: 'other' },
  RequestContentLengthMismatchError: { kind: 'network', failure: 'other' },
  ConnectTimeoutError: { kind: 'network', failure: 'other' },
  InvalidArgumentError: { kind: 'network', failure: 'other' },
  InvalidReturnValueError: { kind: 'network', failure: 'other' },
  RequestAbortedError: { kind: 'network', failure: 'other' },
  ClientDestroyedError: { kind: 'network', failure: 'other' },
  InformationalError: { kind: 'network', failure: 'other' },
  NotSupportedError: { kind: 'network', failure: 'other' },
  BalancedPoolMissingUpstreamError: { kind: 'network', failure: 'other' },
  RequestRetryError: { kind: 'network', failure: 'other' },
  SecureProxyConnectionError: { kind: 'network', failure: 'other' },
  MaxOriginsReachedError: { kind: 'network', failure: 'other' },
  Socks5ProxyError: { kind: 'network', failure: 'other' },
  MessageSizeExceededError: { kind: 'network', failure: 'other' },
  Error: { kind: 'network', failure: 'other' },
  TypeError: { kind: 'network', failure: 'other' },
  'a string': { kind: 'network', failure: 'other' },
};

/** What the injector plants next: into which request, where, and what. */
export interface FaultPlan {
  /** The request that gets the error; the first match only. */
  readonly target: (request: DispatchedRequest) => boolean;
  readonly stage: FaultStage;
  readonly error: unknown;
  /**
   * For a long-lived stream: the fault waits, with the stream open, until a request matching
   * `after` was sent, then replaces the stream's next chunk (the answer it was to carry).
   */
  readonly after?: (request: DispatchedRequest) => boolean;
}

/** The reason the injector aborts a request it already failed (never seen by the client). */
const SPENT = new Error('the planted fault ended this request');

function requestOf(options: Dispatcher.DispatchOptions): DispatchedRequest {
  let rpcMethod: string | undefined;
  if (typeof options.body === 'string') {
    try {
      const parsed = JSON.parse(options.body) as { method?: unknown };
      if (typeof parsed.method === 'string') rpcMethod = parsed.method;
    } catch {
      // Not JSON: no JSON-RPC method.
    }
  }
  return { method: options.method, path: options.path, rpcMethod };
}

/** Hands the client's handler the planted error where the plan says, and nothing after it. */
class FaultingHandler implements Dispatcher.DispatchHandler {
  private spent = false;

  constructor(
    private readonly inner: Dispatcher.DispatchHandler,
    private readonly error: unknown,
    private readonly stage: FaultStage,
    private readonly ready: () => boolean,
    private readonly onPlant: () => void,
  ) {}

  private plant(controller: Dispatcher.DispatchController, abort: boolean): void {
    this.spent = true;
    this.onPlant();
    this.inner.onResponseError?.(controller, this.error as Error);
    if (abort) controller.abort(SPENT);
  }

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.inner.onRequestStart?.(controller, context);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
    statusMessage?: string,
  ): void {
    if (this.stage === 'head') {
      this.plant(controller, true);
      return;
    }
    this.inner.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.spent) return;
    if (this.ready()) {
      this.plant(controller, true);
      return;
    }
    this.inner.onResponseData?.(controller, chunk);
  }

  onResponseEnd(
    controller: Dispatcher.DispatchController,
    trailers: Record<string, string | string[] | undefined>,
  ): void {
    if (this.spent) return;
    // An empty body ends without data: the error comes in place of its end.
    if (this.ready()) {
      this.plant(controller, false);
      return;
    }
    this.inner.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    if (this.spent) return;
    this.inner.onResponseError?.(controller, error);
  }
}

/** A connection's own dispatcher that plants the armed fault, and what it saw. */
export interface FaultInjector {
  /** Give it to the connection as `dispatcher`. */
  readonly dispatcher: Dispatcher;
  /** Plants `plan` into the next matching request. */
  arm(plan: FaultPlan): void;
  /** True once the armed fault was handed to the client. */
  planted(): boolean;
  /** Plants nothing more. */
  disarm(): void;
  /** Every request sent since the last {@link FaultInjector.disarm}, as `METHOD path rpc`. */
  readonly seen: string[];
  /** Closes the agent under it. */
  close(): Promise<void>;
  /**
   * Plants into requests on every undici `Agent` too, not only on {@link FaultInjector.dispatcher};
   * returns the function that stops it.
   */
  throughEveryAgent(): () => void;
}

/** A real keep-alive agent with the fault interceptor composed onto it. */
export function faultInjector(): FaultInjector {
  const agent = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
  const seen: string[] = [];
  let plan: FaultPlan | undefined;
  let taken = false;
  let triggered = false;
  let done = false;
  type Dispatch = (
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ) => boolean;
  const intercept =
    (dispatch: Dispatch): Dispatch =>
    (options, handler) => {
      const request = requestOf(options);
      seen.push([request.method, request.path, request.rpcMethod].filter(Boolean).join(' '));
      const current = plan;
      if (current !== undefined && taken && current.after?.(request) === true) triggered = true;
      if (current === undefined || taken || !current.target(request)) {
        return dispatch(options, handler);
      }
      taken = true;
      const faulting = new FaultingHandler(
        // A handler of undici's older callback style (as `request` dispatches it) in the newer one.
        new DecoratorHandler(handler),
        current.error,
        current.stage,
        () => current.after === undefined || triggered,
        () => {
          done = true;
        },
      );
      return dispatch(options, faulting);
    };
  const dispatcher = agent.compose(intercept);
  return {
    dispatcher,
    throughEveryAgent() {
      // The download makes its own agent per download (pinned to the address it checked), so its
      // requests are reached on the class; restored by the returned function.
      const prototype = Agent.prototype as unknown as { dispatch: Dispatch };
      const own = Object.hasOwn(prototype, 'dispatch');
      const original = prototype.dispatch;
      prototype.dispatch = function (this: Agent, options, handler) {
        return intercept((o, h) => original.call(this, o, h))(options, handler);
      };
      return () => {
        if (own) prototype.dispatch = original;
        else delete (prototype as { dispatch?: Dispatch }).dispatch;
      };
    },
    arm(next) {
      plan = next;
      taken = false;
      triggered = false;
      done = false;
    },
    planted: () => done,
    disarm() {
      plan = undefined;
      seen.length = 0;
    },
    seen,
    close: () => agent.close(),
  };
}

/** The class name a typed failure of `expected` has. */
const CLASS_OF: Readonly<Record<ExpectedFault['kind'], string>> = {
  protocol: 'ConnectionProtocolError',
  'too-large': 'ConnectionResponseTooLargeError',
  network: 'ConnectionNetworkError',
};

/** The projected code of a typed failure of `expected`. */
const CODE_OF: Readonly<Record<ExpectedFault['kind'], string>> = {
  protocol: 'CONNECTION_PROTOCOL_ERROR',
  'too-large': 'CONNECTION_RESPONSE_TOO_LARGE',
  network: 'CONNECTION_NETWORK_ERROR',
};

/** How a failure reads in the tables: class, network failure, operation, phase, planted cause. */
export function describeFailure(error: unknown, planted: unknown): string {
  if (!ConnectionOperationError.isInstance(error)) {
    return `UNTYPED ${error instanceof Error ? error.name : typeof error}`;
  }
  const failure = ConnectionNetworkError.isInstance(error) ? `:${error.failure}` : '';
  const cause = error.cause === planted ? 'planted' : 'other cause';
  return `${error.name}${failure} ${error.operation} ${error.phase} (${cause})`;
}

/** The row a planted error must give, failing `operation` in `phase`. */
export function expectedFailure(
  label: string,
  operation: string,
  phase: 'discovery' | 'call',
): string {
  const expected = EXPECTED_FAULTS[label] ?? { kind: 'network', failure: 'other' };
  const failure = expected.kind === 'network' ? `:${expected.failure}` : '';
  return `${CLASS_OF[expected.kind]}${failure} ${operation} ${phase} (planted)`;
}

/** The projected code a planted error's failure must have. */
export function expectedCode(label: string): string {
  return CODE_OF[(EXPECTED_FAULTS[label] ?? { kind: 'network' }).kind];
}

/** What `error` ends in when planted into a best-effort step (only a size failure ends it). */
export function isSizeFault(label: string): boolean {
  return EXPECTED_FAULTS[label]?.kind === 'too-large';
}

/** Every error {@link plantedErrors} plants, made once per process. */
export const PLANTED: readonly PlantedError[] = plantedErrors();

/**
 * Runs `attempt` once per planted error, armed as `planOf` says; each row is how the attempt
 * ended, marked `NOT PLANTED` when the fault never reached the client (a row that cannot fail).
 */
export async function faultRows(
  injector: FaultInjector,
  planOf: (error: unknown) => FaultPlan,
  attempt: (planted: unknown) => Promise<string>,
): Promise<Record<string, string>> {
  const table: Record<string, string> = {};
  for (const { label, make } of PLANTED) {
    const error = make();
    injector.arm(planOf(error));
    const outcome = await attempt(error);
    table[label] = injector.planted() ? outcome : `NOT PLANTED ${outcome}`;
    injector.disarm();
  }
  return table;
}

/** Every row as `expected(label)`. */
export function expectedRows(expected: (label: string) => string): Record<string, string> {
  return Object.fromEntries(PLANTED.map(({ label }) => [label, expected(label)]));
}

/** How a mount ends: `mounted`, or its typed failure with the planted error's place in it. */
export async function mountOutcome(mounting: Promise<unknown>, planted: unknown): Promise<string> {
  try {
    await mounting;
    return 'mounted';
  } catch (error) {
    return describeFailure(error, planted);
  }
}

/** How a call ends: `ok`, or its projected code and typed cause. */
export async function callOutcome(
  tool: AnyRuntimeToolDefinition,
  args: Record<string, unknown>,
  planted: unknown,
): Promise<string> {
  const result = await runTool(tool, args, { source: 'agent' });
  if (result.ok) return 'ok';
  return `${result.code} ${describeFailure(toolCauseFromResult(result), planted)}`;
}
