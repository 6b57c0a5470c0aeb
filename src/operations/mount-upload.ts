/**
 * `mountUpload` (ADR 0019/0081): the raw MCP adapter of the upload operation. It registers
 * directly on an SDK `McpServer` and keeps the text/`isError` wire contract; no lifecycle or
 * hooks run.
 */

import { z } from 'zod';
import type { McpToolServer } from '../binding/mounts/mcp-request.js';
import type { FileBoundary, FileSource } from './file-boundary.js';
import { assertRawToolName, failureText, registerRawTool, textResult } from './native-result.js';
import { runUploadOperation } from './upload-operation.js';

/** Options of {@link mountUpload}. */
export interface MountUploadOptions {
  /** Tool name; default `'upload'`. */
  readonly name?: string;
  /** Where the tool uploads to. */
  readonly description: string;
  /** Where files are read from. */
  readonly files: FileBoundary;
  /** Uploads the opened file; `signal` fires when the client cancels. */
  upload(file: FileSource, context: { readonly signal: AbortSignal }): unknown;
}

const inputSchema = { path: z.string().describe('Path of the file, relative to the file area') };

/**
 * Registers the raw upload tool. An empty path answers `` Provide `path`. ``; success is the
 * callback's result as pretty JSON (`null` when it returns nothing) with no `isError` key; a
 * failure is `Upload failed [CODE]: message`, unknown errors scrubbed to `INTERNAL_SERVER_ERROR`.
 */
export function mountUpload(server: McpToolServer, options: MountUploadOptions): void {
  const name = options.name ?? 'upload';
  assertRawToolName(name, 'mountUpload');
  registerRawTool(
    server,
    name,
    { description: options.description, inputSchema },
    async (args, request) => {
      if (args.path.trim() === '') return textResult('Provide `path`.', true);
      try {
        const result = await runUploadOperation({
          files: options.files,
          path: args.path,
          signal: request.signal,
          upload: (file, signal) => options.upload(file, { signal }),
        });
        return textResult(JSON.stringify(result ?? null, null, 2), false);
      } catch (error) {
        return textResult(failureText('Upload failed', error), true);
      }
    },
  );
}
