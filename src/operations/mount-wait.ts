/**
 * `mountWait` (ADR 0019/0081): the raw MCP adapter of the wait operation. It registers directly
 * on an SDK `McpServer` and keeps the text/`isError` wire contract; no lifecycle or hooks run.
 */

import type { z } from 'zod';
import type { McpToolServer } from '../binding/mounts/mcp-request.js';
import type { WaitRendering } from './define-wait-tool.js';
import { assertRawToolName, rawProgress, registerRawTool, textResult } from './native-result.js';
import {
  assertWaitTimeoutSeconds,
  runWaitOperation,
  waitProgressMessage,
} from './wait-operation.js';

/** Options of {@link mountWait}. */
export interface MountWaitOptions<Shape extends z.ZodRawShape> {
  /** Tool name; default `'wait'`. */
  readonly name?: string;
  /** What the tool waits for. */
  readonly description: string;
  /** The input shape, validated by the SDK. */
  readonly inputSchema: Shape;
  /** Observes the state once; `signal` fires on cancellation or at the deadline. */
  poll(args: z.infer<z.ZodObject<Shape>>, context: { readonly signal: AbortSignal }): unknown;
  /** True when a state is final. */
  done(state: unknown): boolean;
  /** The timeout in seconds chosen by the arguments. */
  timeoutFromArgs?(args: z.infer<z.ZodObject<Shape>>): number | undefined;
  /** Sleep schedule in seconds, last entry repeating; default 2,3,5,5,8,10. */
  readonly backoff?: readonly number[];
  /** Default timeout in seconds; default 600. */
  readonly defaultTimeout?: number;
  /** Renders the final state; default pretty JSON with `isError` = timed out. */
  render?(state: unknown, timedOut: boolean): WaitRendering;
}

/**
 * Registers the raw wait tool. Progress notifications are sent per poll only when the request
 * carries a `progressToken`. Success is `{ content }` with no `isError` key; a timeout renders
 * with `isError: true`; a throwing poll or render answers `Wait failed: <message>` as an error.
 */
export function mountWait<Shape extends z.ZodRawShape>(
  server: McpToolServer,
  options: MountWaitOptions<Shape>,
): void {
  const name = options.name ?? 'wait';
  assertRawToolName(name, 'mountWait');
  if (options.defaultTimeout !== undefined) {
    assertWaitTimeoutSeconds(options.defaultTimeout, 'defaultTimeout');
  }
  registerRawTool(server, name, options, async (args, request) => {
    const progress = rawProgress(request);
    try {
      const result = await runWaitOperation<unknown>({
        poll: ({ signal }) => options.poll(args, { signal }),
        done: (state) => options.done(state),
        timeoutSeconds: options.timeoutFromArgs?.(args),
        defaultTimeoutSeconds: options.defaultTimeout,
        signal: request.signal,
        ...(options.backoff === undefined ? {} : { backoffSeconds: options.backoff }),
        ...(progress === undefined
          ? {}
          : {
              onPoll: (tick) =>
                progress(
                  tick.poll,
                  undefined,
                  waitProgressMessage(tick.state, tick.poll, tick.elapsedMs),
                ),
            }),
      });
      if (options.render !== undefined) {
        const rendering = options.render(result.state, result.timedOut);
        return textResult(rendering.text, rendering.isError === true);
      }
      return textResult(JSON.stringify(result.state, null, 2), result.timedOut);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return textResult(`Wait failed: ${message}`, true);
    }
  });
}
