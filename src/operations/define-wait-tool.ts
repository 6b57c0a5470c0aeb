/**
 * `defineWaitTool` (ADR 0081): a managed `RuntimeToolDefinition` that polls until done, runs
 * through the canonical runner, and mounts on MCP, Agent, or a subset.
 */
import type { z } from 'zod';
import {
  AppError,
  defineRuntimeTool,
  type McpPresentation,
  type RuntimeToolDefinition,
  type RuntimeToolHandlerContext,
} from '../binding/index.js';
import type { InspectionObserver, TransitionObserver } from '../machines/observe.js';
import { WaitTimeoutError } from '../machines/wait/wait.timeout-error.js';
import { type ManagedNativeToolConfig, managedNativeFields } from './native-definition.js';
import {
  assertWaitTimeoutSeconds,
  runWaitOperation,
  type WaitTick,
  waitProgressMessage,
} from './wait-operation.js';

/** How a state reads to a person or model; `isError` marks a terminal failure. */
export interface WaitRendering {
  /** The text shown for the state. */
  readonly text: string;
  /** True when the state is a failure (the managed tool answers `WAIT_FAILED`). */
  readonly isError?: boolean;
}

/** Configuration of {@link defineWaitTool}. */
export interface WaitToolConfig<I extends z.ZodObject, S extends z.ZodType>
  extends ManagedNativeToolConfig {
  /** The tool's input schema. */
  readonly input: I;
  /** The state schema: every poll result is validated by it, and it is the output schema. */
  readonly state: S;
  /** Observes the state once; `context.signal` fires on caller abort or at the deadline. */
  poll(input: z.infer<I>, context: RuntimeToolHandlerContext<z.infer<I>>): unknown;
  /** True when a state is final. */
  done(state: z.infer<S>): boolean;
  /** The timeout in seconds chosen by the input; `undefined` uses the default. */
  timeoutFromInput?(input: z.infer<I>): number | undefined;
  /** Sleep schedule in seconds, last entry repeating; default 2,3,5,5,8,10. */
  readonly backoff?: readonly number[];
  /** Default timeout in seconds; default 600. */
  readonly defaultTimeout?: number;
  /** Renders a state; drives the MCP text, `WAIT_FAILED`, and the timeout message. */
  render?(state: z.infer<S>, timedOut: boolean): WaitRendering;
  /** Per-transport presenters; they override the `render`-based MCP presenter. */
  readonly present?: RuntimeToolDefinition<I, S>['present'];
  /** Receives the wait machine's transition records. */
  readonly observe?: TransitionObserver;
  /** Handed to the wait actor unchanged. */
  readonly inspect?: InspectionObserver;
}

/**
 * Builds the managed wait tool. Its handler polls through the `wait` machine; a timeout with a
 * state throws `WaitTimeoutError` with the rendered text (projected as `AppError('WAIT_TIMEOUT',
 * text, 408)`), a timeout before any state is `WaitTimeoutError` too, and a state whose rendering
 * `isError` is `AppError('WAIT_FAILED', text, 409)`. Otherwise the validated state is the output.
 * After each non-final poll it calls `ctx.reportProgress(poll, undefined, "<phase> — poll N, Xs
 * elapsed")` (see `waitProgressMessage`), which MCP delivers when the request carries a
 * `progressToken`.
 */
export function defineWaitTool<I extends z.ZodObject, S extends z.ZodType>(
  config: WaitToolConfig<I, S>,
): RuntimeToolDefinition<I, S> {
  if (config.defaultTimeout !== undefined) {
    assertWaitTimeoutSeconds(config.defaultTimeout, 'defaultTimeout');
  }
  const render = config.render;
  const mcpPresenter =
    render === undefined
      ? undefined
      : (state: z.infer<S>): McpPresentation => ({
          content: [{ type: 'text', text: render(state, false).text }],
        });
  const present =
    mcpPresenter === undefined && config.present === undefined
      ? undefined
      : { ...(mcpPresenter === undefined ? {} : { mcp: mcpPresenter }), ...config.present };
  return defineRuntimeTool<I, S>({
    ...managedNativeFields(config, { name: 'wait', method: 'GET' }),
    input: config.input,
    output: config.state,
    ...(present === undefined ? {} : { present }),
    async handler(ctx) {
      const result = await runWaitOperation<z.infer<S>>({
        poll: async ({ signal }) =>
          config.state.parse(await config.poll(ctx.input, { ...ctx, signal })) as z.infer<S>,
        done: (state) => config.done(state),
        timeoutSeconds: config.timeoutFromInput?.(ctx.input),
        defaultTimeoutSeconds: config.defaultTimeout,
        signal: ctx.signal,
        onPoll: (tick: WaitTick<z.infer<S>>) => {
          if (config.done(tick.state)) return;
          // Sent only when the caller asked for progress; a failed report never ends the wait.
          const message = waitProgressMessage(tick.state, tick.poll, tick.elapsedMs);
          Promise.resolve(ctx.reportProgress(tick.poll, undefined, message)).catch(() => {});
        },
        ...(config.backoff === undefined ? {} : { backoffSeconds: config.backoff }),
        ...(config.observe === undefined ? {} : { observe: config.observe }),
        ...(config.inspect === undefined ? {} : { inspect: config.inspect }),
      });
      if (result.timedOut) {
        const message =
          render?.(result.state, true).text ?? 'Wait timed out before the operation completed';
        throw new WaitTimeoutError(result.timeoutMs, { message });
      }
      const rendering = render?.(result.state, false);
      if (rendering?.isError === true) {
        throw new AppError('WAIT_FAILED', {
          message: rendering.text,
          status: 409,
          retryable: false,
        });
      }
      return result.state;
    },
  });
}
