/**
 * The caller side of a call, transport-neutral: what a tool may ask its caller while it runs
 * (MCP's client features: sampling, elicitation, roots) and the log messages it may send it.
 * Each transport supplies a {@link ToolCallerHandler}; the runner turns it into the handler
 * context's `ctx.caller`, which answers what the caller never declared with `-32601` itself.
 */
import { raceAbort } from '../kernel/race-abort.js';
import { JSON_RPC_ERROR } from '../kernel/rpc-codes.js';

/** The requests a tool may send its caller, by MCP method name. */
export type ToolCallerMethod = 'sampling/createMessage' | 'elicitation/create' | 'roots/list';

/**
 * What the caller can answer, in the shape of MCP client capabilities: each present key is a
 * method group it serves (`sampling` → `sampling/createMessage`, `elicitation` →
 * `elicitation/create`, `roots` → `roots/list`), its value the caller's own sub-capabilities.
 */
export interface ToolCallerCapabilities {
  /** The caller can sample its model. */
  readonly sampling?: Readonly<Record<string, unknown>>;
  /** The caller can ask its user. */
  readonly elicitation?: Readonly<Record<string, unknown>>;
  /** The caller can list its roots. */
  readonly roots?: Readonly<Record<string, unknown>>;
}

/** One request to the caller: the method and its params, as MCP defines them. */
export interface ToolCallerRequest {
  /** The method. */
  readonly method: ToolCallerMethod;
  /** The params, passed through as written. */
  readonly params: Readonly<Record<string, unknown>>;
}

/** A JSON-RPC error the caller answered with (or `-32601` for a method it never declared). */
export interface ToolCallerError {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The error message, as the caller wrote it. */
  readonly message: string;
  /** The error's data, when the caller sent any. */
  readonly data?: unknown;
}

/** The caller's answer: its result, or its error, each as the caller wrote it. */
export type ToolCallerAnswer =
  | { readonly result: Readonly<Record<string, unknown>> }
  | { readonly error: ToolCallerError };

/** A log message for the caller (MCP `notifications/message` params). */
export interface ToolLogMessage {
  /** The syslog severity, as MCP names it (`debug` … `emergency`). */
  readonly level: string;
  /** The logger's name, when given. */
  readonly logger?: string;
  /** The message: any JSON value. */
  readonly data: unknown;
  /** Protocol metadata, when given. */
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/**
 * A retry's answers to the questions an earlier attempt of the same call was asked
 * (`input_required`, MCP 2026-07-28): each answer under the key the upstream gave its question,
 * and the upstream's `requestState` exactly as it was sent, when it sent one.
 */
export interface ToolCallerAnswered {
  /** The answers, by question key, as the caller wrote them. */
  readonly inputResponses: Readonly<Record<string, unknown>>;
  /** The upstream's state for the retry, byte for byte. */
  readonly requestState?: string;
  /**
   * The upstream task whose questions these answer (the earlier attempt ended with its
   * `input_required`): the retry sends the answers to that task instead of calling again.
   */
  readonly taskId?: string;
}

/**
 * What a transport (or a host, through `runTool` and `mountAgent`) supplies for one call: the
 * capabilities its caller declared and how to reach it. Without `request`, nothing is declared;
 * without `log`, log messages are dropped.
 */
export interface ToolCallerHandler {
  /** What the caller declared it can answer; methods outside it never reach `request`. */
  readonly capabilities: ToolCallerCapabilities;
  /**
   * Sends one request to the caller and resolves with its answer. A rejection that is not the
   * signal's reason is answered `-32603` ("Internal error"); its message never leaves the process.
   */
  request?(
    request: ToolCallerRequest,
    options: { readonly signal: AbortSignal },
  ): Promise<ToolCallerAnswer> | ToolCallerAnswer;
  /** Delivers one log message; a throw or rejection is contained. */
  log?(message: ToolLogMessage): void | Promise<void>;
  /**
   * The caller answers questions by sending the whole call again (a gateway in front of an MCP
   * 2026-07-28 client): a call whose upstream asks it something ends with the questions (an
   * `input_required` failure) instead of waiting for `request`.
   */
  readonly defersInput?: boolean;
  /** The answers this attempt brings to the questions an earlier attempt ended with. */
  readonly answered?: ToolCallerAnswered;
  /**
   * The caller takes a task as the call's answer (a gateway in front of an MCP 2026-07-28 client
   * that declared the tasks extension): a call its upstream runs as a task ends with the task (a
   * failure carrying it) instead of being driven to its end here; the caller polls it itself.
   */
  readonly acceptsTasks?: boolean;
}

/** The handler context's `ctx.caller`: always present, answering nothing when nobody listens. */
export interface ToolCaller {
  /** What the caller declared it can answer (`{}` when nothing). */
  readonly capabilities: ToolCallerCapabilities;
  /**
   * Asks the caller and resolves with its answer; a method the caller never declared resolves
   * `-32601` at once. Bounded by the call's signal (and `options.signal`): it rejects with the
   * reason of whichever aborts first.
   */
  request(
    request: ToolCallerRequest,
    options?: { readonly signal?: AbortSignal },
  ): Promise<ToolCallerAnswer>;
  /** Sends the caller a log message; it never throws, and the promise always resolves. */
  log(message: ToolLogMessage): Promise<void>;
  /**
   * Whether anyone receives the log messages (the handler gave `log`): a transport asks its
   * upstream for logs only then (MCP 2026-07-28 sends none unless a request asks).
   */
  readonly takesLogs: boolean;
  /** The caller answers questions by a later retry of the whole call ({@link ToolCallerHandler}). */
  readonly defersInput: boolean;
  /** The answers this attempt brings, when it is such a retry. */
  readonly answered: ToolCallerAnswered | undefined;
  /** The caller takes an upstream's task as the call's answer ({@link ToolCallerHandler}). */
  readonly acceptsTasks: boolean;
}

/** JSON-RPC "method not found" (`-32601`): the answer to a method the caller never declared. */
export const CALLER_METHOD_NOT_FOUND = JSON_RPC_ERROR.methodNotFound;
/** JSON-RPC "internal error" (`-32603`): the answer when the host's handler failed. */
export const CALLER_INTERNAL_ERROR = JSON_RPC_ERROR.internalError;

const CAPABILITY_OF_METHOD: Readonly<Record<ToolCallerMethod, keyof ToolCallerCapabilities>> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/** Whether `method` is one a tool may send its caller. */
export function isToolCallerMethod(method: unknown): method is ToolCallerMethod {
  return typeof method === 'string' && Object.hasOwn(CAPABILITY_OF_METHOD, method);
}

/** Whether the caller declared the capability that serves `method`. */
export function callerServes(capabilities: ToolCallerCapabilities, method: string): boolean {
  if (!isToolCallerMethod(method)) return false;
  const capability = capabilities[CAPABILITY_OF_METHOD[method]];
  return typeof capability === 'object' && capability !== null;
}

/**
 * Only the three capability groups, each copied as a plain object: what a caller's client may
 * have declared beside them (experimental keys, tasks) is not the tool's to use.
 */
export function callerCapabilitiesOf(declared: unknown): ToolCallerCapabilities {
  if (typeof declared !== 'object' || declared === null) return {};
  const source = declared as Record<string, unknown>;
  const capabilities: Record<string, Readonly<Record<string, unknown>>> = {};
  for (const key of ['sampling', 'elicitation', 'roots'] as const) {
    const value = source[key];
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      capabilities[key] = { ...(value as Record<string, unknown>) };
    }
  }
  return capabilities;
}

const NOT_DECLARED: ToolCallerAnswer = Object.freeze({
  error: Object.freeze({ code: CALLER_METHOD_NOT_FOUND, message: 'Method not found' }),
});
const HANDLER_FAILED: ToolCallerAnswer = Object.freeze({
  error: Object.freeze({ code: CALLER_INTERNAL_ERROR, message: 'Internal error' }),
});

/** The `ctx.caller` of a call nobody can answer: `-32601` for every request, logs dropped. */
export const NO_CALLER: ToolCaller = Object.freeze({
  capabilities: Object.freeze({}),
  request: async () => NOT_DECLARED,
  log: async () => {},
  takesLogs: false,
  defersInput: false,
  answered: undefined,
  acceptsTasks: false,
});

/**
 * Whether the call's caller can receive anything: a declared capability or a log listener, so a
 * tool can skip relaying for a caller that would answer nothing.
 */
export function isCallerListening(caller: ToolCaller | undefined): boolean {
  return caller !== undefined && caller !== NO_CALLER;
}

/** The call's signal and the request's own, as one. */
function bothSignals(call: AbortSignal, own: AbortSignal | undefined): AbortSignal {
  return own === undefined || own === call ? call : AbortSignal.any([call, own]);
}

/**
 * The `ctx.caller` of one call: `handler`'s capabilities, each request bounded by the call's
 * `signal`, methods outside the capabilities answered `-32601` without reaching the handler.
 */
export function toolCallerOf(
  handler: ToolCallerHandler | undefined,
  signal: AbortSignal,
): ToolCaller {
  if (handler === undefined) return NO_CALLER;
  const capabilities = callerCapabilitiesOf(handler.capabilities);
  // Bound, so a host's handler may be a class instance whose methods use `this`.
  const send = handler.request?.bind(handler);
  const deliver = handler.log?.bind(handler);
  const defersInput = handler.defersInput === true;
  const answered = handler.answered;
  const acceptsTasks = handler.acceptsTasks === true;
  if (
    deliver === undefined &&
    !defersInput &&
    !acceptsTasks &&
    answered === undefined &&
    (send === undefined || Object.keys(capabilities).length === 0)
  ) {
    return NO_CALLER;
  }
  return {
    // A deferring caller declares what its client declared: it answers by a later retry.
    capabilities: send === undefined && !defersInput ? {} : capabilities,
    async request(request, options) {
      if (send === undefined || !callerServes(capabilities, request.method)) return NOT_DECLARED;
      const bounded = bothSignals(signal, options?.signal);
      bounded.throwIfAborted();
      try {
        return await raceAbort(Promise.resolve(send(request, { signal: bounded })), bounded);
      } catch (error) {
        if (bounded.aborted && error === bounded.reason) throw error;
        return HANDLER_FAILED;
      }
    },
    async log(message) {
      try {
        await deliver?.(message);
      } catch {
        // Logging is advisory: a failed delivery never changes the call's outcome.
      }
    },
    takesLogs: deliver !== undefined,
    defersInput,
    answered,
    acceptsTasks,
  };
}
