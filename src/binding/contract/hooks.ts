/**
 * Host hooks around a tool call (observers) and the lifecycle gate (participants), plus the
 * containment rule: a throwing or rejecting hook never changes a call's outcome.
 */
import type {
  AnyRuntimeToolDefinition,
  RuntimeToolCallContext,
  RuntimeToolHandlerContext,
} from './runtime-tool.js';
import type { ToolResult } from './tool-result.js';

/** What `beforeToolCall` receives. */
export interface BeforeToolCallInfo {
  /** The tool's name. */
  toolName: string;
  /** The arguments as the caller sent them. */
  args: unknown;
  /** The call context (host fields, signal, source, toolCallId). */
  context: RuntimeToolCallContext;
}

/** What `afterToolCall` receives; it fires once for every call, success or failure. */
export interface AfterToolCallInfo {
  /** The tool's name. */
  toolName: string;
  /** The arguments as the caller sent them. */
  args: unknown;
  /** The call's result. */
  result: ToolResult;
  /** Wall-clock duration of the call in milliseconds. */
  durationMs: number;
  /** The call context. */
  context: RuntimeToolCallContext;
  /** The raw thrown value, when the call failed by a throw (the same object `onToolError` saw). */
  error?: unknown;
  /** The arguments `beforeToolCall` substituted, when it did. */
  effectiveArgs?: unknown;
}

/** What `onToolError` receives. */
export interface ToolErrorInfo {
  /** The tool's name. */
  toolName: string;
  /** The raw thrown value, as thrown. */
  error: unknown;
  /** The call context. */
  context: RuntimeToolCallContext;
}

/** What `onHookError` receives when another hook threw and was contained. */
export interface HookErrorInfo {
  /** Which hook threw. */
  hook: 'beforeToolCall' | 'afterToolCall' | 'onToolError';
  /** The tool's name. */
  toolName: string;
  /** What the hook threw. */
  error: unknown;
}

/** Observers of every tool call. Each may be async; none can change a call's outcome by throwing. */
export interface ToolCallHooks {
  /** Runs first; returning a plain object replaces the arguments. */
  beforeToolCall?(info: BeforeToolCallInfo): unknown;
  /** Runs last, for every call. */
  afterToolCall?(info: AfterToolCallInfo): void | Promise<void>;
  /** Runs when the call failed by a throw, before `afterToolCall`. */
  onToolError?(info: ToolErrorInfo): void | Promise<void>;
  /** Learns about a contained hook failure; its own failures are ignored. */
  onHookError?(info: HookErrorInfo): void | Promise<void>;
}

/** The gate around the handler (e.g. authorization). Unlike hooks, these do change outcomes. */
export interface ToolLifecycle {
  /** Runs after input validation; a throw refuses the call before the handler runs. */
  beforeHandle?(
    ctx: RuntimeToolHandlerContext<unknown>,
    definition: AnyRuntimeToolDefinition,
  ): void | Promise<void>;
  /** Runs after the handler; a non-`undefined` return replaces its result. */
  afterHandle?(
    ctx: RuntimeToolHandlerContext<unknown>,
    result: unknown,
    definition: AnyRuntimeToolDefinition,
  ): unknown;
}

/**
 * Calls one observer hook and contains any failure (sync throw or rejection), reporting it to
 * `onHookError`. Returns the hook's value, or `undefined` when it is absent or failed.
 */
export async function callHookContained<
  K extends 'beforeToolCall' | 'afterToolCall' | 'onToolError',
>(
  hooks: ToolCallHooks | undefined,
  hook: K,
  info: Parameters<NonNullable<ToolCallHooks[K]>>[0],
  toolName: string,
): Promise<unknown> {
  const fn = hooks?.[hook] as ((arg: typeof info) => unknown) | undefined;
  if (typeof fn !== 'function') return undefined;
  try {
    return await fn.call(hooks, info);
  } catch (error) {
    try {
      await hooks?.onHookError?.({ hook, toolName, error });
    } catch {
      // A failing error reporter has nowhere left to report to.
    }
    return undefined;
  }
}
