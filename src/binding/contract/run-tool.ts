/**
 * The canonical runner: every call on every transport goes through `runTool`, exactly once, in
 * the order beforeToolCall -> input validation -> beforeHandle -> handler -> afterHandle -> output
 * validation -> presenter -> afterToolCall (onToolError first when something threw).
 */
import { AppError } from '../kernel/app-error.js';
import { isPlainObject } from '../kernel/type-guards.js';
import { type ToolCallerHandler, toolCallerOf } from './caller.js';
import { callHookContained, type ToolCallHooks, type ToolLifecycle } from './hooks.js';
import { presentOutput } from './presentation.js';
import type {
  AnyRuntimeToolDefinition,
  RuntimeToolCallContext,
  RuntimeToolHandlerContext,
  ToolProgressReporter,
  ToolSource,
  ToolTransport,
} from './runtime-tool.js';
import {
  type ToolResult,
  toolResultFromAppError,
  toolResultFromCancellation,
  toolResultFromError,
} from './tool-result.js';
import { parseWithSchema } from './zod-schema.js';

/** How one call is run. */
export interface RunToolOptions {
  /** The surface the call came from; becomes `ctx.source`. */
  source: ToolSource;
  /** The caller's cancellation; a never-aborting signal is used when absent. */
  signal?: AbortSignal;
  /** The caller's id for this call. */
  toolCallId?: string;
  /** Host context fields spread into the call context (framework-owned fields win). */
  context?: Readonly<Record<string, unknown>>;
  /** Observers of the call. */
  hooks?: ToolCallHooks;
  /** The gate around the handler. */
  lifecycle?: ToolLifecycle;
  /**
   * The transport whose presenter applies (see `presentOutput`): with `MCP` the success `data`
   * is the MCP presentation; with `AGENT` it is `present.agent`'s value when declared.
   */
  transport?: ToolTransport;
  /**
   * Delivers the handler's `ctx.reportProgress` calls (e.g. as MCP progress notifications); when
   * absent, `ctx.reportProgress` is a no-op. A throw or rejection is contained.
   */
  reportProgress?: ToolProgressReporter;
  /**
   * The caller's side of the call: what it declared it can answer and how to reach it. Becomes
   * `ctx.caller`; when absent, every request a tool sends its caller resolves `-32601`.
   */
  caller?: ToolCallerHandler;
}

const NO_PROGRESS: ToolProgressReporter = () => {};

/**
 * Whether anyone listens to the call's `ctx.reportProgress` (an MCP caller that sent a
 * `progressToken`, or a `runTool` caller that passed `reportProgress`), so a tool can skip asking
 * its own upstream for progress nobody would see.
 */
export function isProgressListened(
  context: Pick<RuntimeToolCallContext, 'reportProgress'>,
): boolean {
  return context.reportProgress !== NO_PROGRESS;
}

/** Wraps a transport's progress sender so that it never throws into the handler. */
function containedProgressReporter(send: ToolProgressReporter | undefined): ToolProgressReporter {
  if (send === undefined) return NO_PROGRESS;
  return async (progress, total, message) => {
    try {
      await send(progress, total, message);
    } catch {
      // Progress is advisory: a failed report never changes the call's outcome.
    }
  };
}

/**
 * The context of one call as hooks and the handler see it: the host's fields, then the framework's
 * (`signal`, `source`, `reportProgress`, `caller`, `toolCallId`) over them. Also what a gateway
 * resolves credentials for when it forwards a relayed task's requests (as the call's were).
 */
export function toolCallContextOf(
  options: Pick<RunToolOptions, 'context' | 'source' | 'reportProgress' | 'caller' | 'toolCallId'>,
  signal: AbortSignal,
): RuntimeToolCallContext {
  // Host fields first, framework fields over them: `Object.assign`, not a spread followed by keys
  // (docs/architecture.md, "Per-call objects").
  return Object.assign({}, options.context, {
    signal,
    source: options.source,
    reportProgress: containedProgressReporter(options.reportProgress),
    caller: toolCallerOf(options.caller, signal),
    ...(options.toolCallId === undefined ? {} : { toolCallId: options.toolCallId }),
  });
}

/**
 * Runs one call of `definition` with `rawArgs` and returns its {@link ToolResult}; it never
 * rejects. A handler that throws the caller's `signal.reason` yields `CANCELLED` (499), whose
 * retained cause is that exact reason.
 */
export async function runTool(
  definition: AnyRuntimeToolDefinition,
  rawArgs: unknown,
  options: RunToolOptions,
): Promise<ToolResult> {
  const startedAt = performance.now();
  const toolName = definition.name;
  const { hooks, lifecycle } = options;
  // A signal per call: a shared never-aborting one would collect a listener per concurrent run.
  const signal = options.signal ?? new AbortController().signal;
  const context = toolCallContextOf(options, signal);

  let args = rawArgs;
  let replacedArgs = false;
  let result: ToolResult;
  let thrown: { error: unknown } | undefined;
  try {
    const replacement = await callHookContained(
      hooks,
      'beforeToolCall',
      { toolName, args: rawArgs, context },
      toolName,
    );
    if (isPlainObject(replacement)) {
      args = replacement;
      replacedArgs = true;
    }
    const parsed = await parseWithSchema(definition.input, args);
    if (!parsed.success) {
      const error = new AppError('VALIDATION_ERROR', {
        message: 'Invalid tool input',
        status: 400,
        details: { message: 'Invalid tool input', issues: parsed.issues },
        retryable: false,
        cause: parsed.error,
      });
      result = toolResultFromAppError(error, parsed.error);
    } else {
      // An object schema's parse result is an object.
      const input = parsed.data as Record<string, unknown>;
      const ctx: RuntimeToolHandlerContext<Record<string, unknown>> = Object.assign({}, context, {
        input,
      });
      signal.throwIfAborted();
      await lifecycle?.beforeHandle?.(ctx, definition);
      let output: unknown = await definition.handler(ctx);
      const replaced = await lifecycle?.afterHandle?.(ctx, output, definition);
      if (replaced !== undefined) output = replaced;
      output = await validateOutput(definition, output);
      result = { ok: true, data: presentOutput(definition, options.transport, output) };
    }
  } catch (error) {
    thrown = { error };
    result =
      signal.aborted && error === signal.reason
        ? toolResultFromCancellation(error)
        : toolResultFromError(error);
    await callHookContained(hooks, 'onToolError', { toolName, error, context }, toolName);
  }

  await callHookContained(
    hooks,
    'afterToolCall',
    {
      toolName,
      args: rawArgs,
      result,
      durationMs: performance.now() - startedAt,
      context,
      ...(thrown ? { error: thrown.error } : {}),
      ...(replacedArgs ? { effectiveArgs: args } : {}),
    },
    toolName,
  );
  return result;
}

/** Validates a declared output; a mismatch is the server's fault, never the caller's. */
async function validateOutput(
  definition: AnyRuntimeToolDefinition,
  output: unknown,
): Promise<unknown> {
  if (definition.output === undefined) return output;
  const parsed = await parseWithSchema(definition.output, output);
  if (parsed.success) return parsed.data;
  throw new AppError('INTERNAL_SERVER_ERROR', {
    message: `Output of tool "${definition.name}" does not match its declared schema`,
    status: 500,
    details: { message: 'Internal server error' },
    retryable: false,
    cause: parsed.error,
  });
}
