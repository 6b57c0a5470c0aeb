/**
 * `defineDownloadTool` (ADR 0081): a managed `RuntimeToolDefinition` that downloads one file
 * into the file boundary through the guarded fetch, runs through the canonical runner, and
 * mounts on MCP, Agent, or a subset.
 */
import type { z } from 'zod';
import {
  defineRuntimeTool,
  type RuntimeToolDefinition,
  type RuntimeToolHandlerContext,
} from '../binding/index.js';
import type { InspectionObserver, TransitionObserver } from '../machines/observe.js';
import {
  type DownloadLimits,
  downloadProgressMessage,
  resolveDownloadLimits,
  runDownloadOperation,
} from './download-operation.js';
import type { FileBoundary } from './file-boundary.js';
import { FileReferenceSchema } from './file-reference.js';
import { type ManagedNativeToolConfig, managedNativeFields } from './native-definition.js';

/** Configuration of {@link defineDownloadTool}. */
export interface DownloadToolConfig<I extends z.ZodObject>
  extends DownloadLimits,
    ManagedNativeToolConfig {
  /** The tool's input schema. */
  readonly input: I;
  /**
   * The URL to download for this input; `null` or `undefined` answers `DOWNLOAD_NOT_FOUND`
   * (404). `context.signal` fires on caller abort or at the header deadline.
   */
  resolveUrl(input: z.infer<I>, context: RuntimeToolHandlerContext<z.infer<I>>): unknown;
  /** Where files go. */
  readonly files: FileBoundary;
  /** The boundary path for this input; default the URL's base name plus an extension. */
  pathFromInput?(input: z.infer<I>): string | undefined;
  /** Per-transport presenters of the file reference. */
  readonly present?: RuntimeToolDefinition<I, typeof FileReferenceSchema>['present'];
  /** Receives the download machine's transition records. */
  readonly observe?: TransitionObserver;
  /** Handed to the download actor unchanged. */
  readonly inspect?: InspectionObserver;
}

/**
 * Builds the managed download tool. Its output is the file reference `{ path, size, mediaType }`.
 * Failures take the canonical `AppError` path with safe codes: `DOWNLOAD_NOT_FOUND` (404),
 * `DOWNLOAD_HTTP_ERROR` (502), `DOWNLOAD_TOO_LARGE` (413), `DOWNLOAD_HOST_REFUSED` (403, the
 * address is never echoed), `DOWNLOAD_TIMEOUT` (504), and the boundary's `FILE_*` codes. As bytes
 * arrive it calls `ctx.reportProgress(received, total, "<n> of <total> bytes")`, at most every
 * 250 ms. Limits are checked here, at definition time (RangeError naming the option).
 */
export function defineDownloadTool<I extends z.ZodObject>(
  config: DownloadToolConfig<I>,
): RuntimeToolDefinition<I, typeof FileReferenceSchema> {
  resolveDownloadLimits(config);
  return defineRuntimeTool<I, typeof FileReferenceSchema>({
    ...managedNativeFields(config, { name: 'download', method: 'POST' }),
    input: config.input,
    output: FileReferenceSchema,
    ...(config.present === undefined ? {} : { present: config.present }),
    async handler(ctx) {
      const path = config.pathFromInput?.(ctx.input);
      return runDownloadOperation({
        ...config,
        resolveUrl: ({ signal }) => config.resolveUrl(ctx.input, { ...ctx, signal }),
        signal: ctx.signal,
        ...(path === undefined ? {} : { path }),
        onProgress: (progress) => {
          // Sent only when the caller asked for progress; a failed report never ends the download.
          Promise.resolve(
            ctx.reportProgress(
              progress.receivedBytes,
              progress.totalBytes,
              downloadProgressMessage(progress),
            ),
          ).catch(() => {});
        },
      });
    },
  });
}
