/**
 * `mountDownload` (ADR 0019/0081): the raw MCP adapter of the download operation. It registers
 * directly on an SDK `McpServer` and keeps the text/`isError` wire contract; no lifecycle or
 * hooks run.
 */

import type { z } from 'zod';
import type { McpToolServer } from '../binding/mounts/mcp-request.js';
import { DownloadError } from '../wire/download/download-error.js';
import {
  type DownloadLimits,
  downloadProgressMessage,
  resolveDownloadLimits,
  runDownloadOperation,
} from './download-operation.js';
import type { FileBoundary } from './file-boundary.js';
import {
  assertRawToolName,
  failureText,
  rawProgress,
  registerRawTool,
  textResult,
} from './native-result.js';

/** Options of {@link mountDownload}. */
export interface MountDownloadOptions<Shape extends z.ZodRawShape> extends DownloadLimits {
  /** Tool name; default `'download'`. */
  readonly name?: string;
  /** What the tool downloads. */
  readonly description: string;
  /** The input shape, validated by the SDK. */
  readonly inputSchema: Shape;
  /** The URL for these arguments; `null` or `undefined` answers `Nothing to download.` */
  resolveUrl(args: z.infer<z.ZodObject<Shape>>, context: { readonly signal: AbortSignal }): unknown;
  /** Where files go. */
  readonly files: FileBoundary;
  /** The boundary path for these arguments; default the URL's base name plus an extension. */
  pathFromArgs?(args: z.infer<z.ZodObject<Shape>>): string | undefined;
}

/**
 * Registers the raw download tool. Success is the file reference as pretty JSON with no
 * `isError` key; a null URL is `Nothing to download.`; a known failure is `Download failed
 * [CODE]: message`; anything else is scrubbed to `Download failed [INTERNAL_SERVER_ERROR]:
 * Internal server error`. Progress notifications go out only when the request carries a
 * `progressToken`.
 */
export function mountDownload<Shape extends z.ZodRawShape>(
  server: McpToolServer,
  options: MountDownloadOptions<Shape>,
): void {
  const name = options.name ?? 'download';
  assertRawToolName(name, 'mountDownload');
  resolveDownloadLimits(options);
  registerRawTool(server, name, options, async (args, request) => {
    const progress = rawProgress(request);
    const path = options.pathFromArgs?.(args);
    try {
      const file = await runDownloadOperation({
        ...options,
        resolveUrl: ({ signal }) => options.resolveUrl(args, { signal }),
        signal: request.signal,
        ...(path === undefined ? {} : { path }),
        ...(progress === undefined
          ? {}
          : {
              onProgress: (tick) =>
                progress(tick.receivedBytes, tick.totalBytes, downloadProgressMessage(tick)),
            }),
      });
      return textResult(JSON.stringify(file, null, 2), false);
    } catch (error) {
      if (DownloadError.isInstance(error) && error.code === 'DOWNLOAD_NOT_FOUND') {
        return textResult('Nothing to download.', true);
      }
      return textResult(failureText('Download failed', error), true);
    }
  });
}
