/**
 * `defineUploadTool` (ADR 0081): a managed `RuntimeToolDefinition` whose input is a path inside
 * the file boundary and whose work is the application's upload of that file.
 */
import { z } from 'zod';
import {
  defineRuntimeTool,
  type RuntimeToolDefinition,
  type RuntimeToolHandlerContext,
} from '../binding/index.js';
import type { FileBoundary, FileSource } from './file-boundary.js';
import { type ManagedNativeToolConfig, managedNativeFields } from './native-definition.js';
import { runUploadOperation } from './upload-operation.js';

/** The input of every upload tool: a path relative to the file boundary's root. */
export const UploadToolInputSchema = z.object({
  path: z.string().min(1).describe('Path of the file, relative to the file area'),
});

/** Configuration of {@link defineUploadTool}. */
export interface UploadToolConfig<O extends z.ZodType> extends ManagedNativeToolConfig {
  /** Where files are read from. */
  readonly files: FileBoundary;
  /** The output schema; the runner validates `upload`'s result against it. */
  readonly output: O;
  /** Uploads the opened file; `context` is the call's (its `signal`, `source`, host fields). */
  upload(
    file: FileSource,
    context: RuntimeToolHandlerContext<z.infer<typeof UploadToolInputSchema>>,
  ): z.infer<O> | Promise<z.infer<O>>;
  /** Per-transport presenters of the output. */
  readonly present?: RuntimeToolDefinition<typeof UploadToolInputSchema, O>['present'];
}

/**
 * Builds the managed upload tool. A path the boundary refuses answers its `FILE_*` code (the
 * path is not echoed); the callback's own `AppError`s pass through; its output is validated.
 */
export function defineUploadTool<O extends z.ZodType>(
  config: UploadToolConfig<O>,
): RuntimeToolDefinition<typeof UploadToolInputSchema, O> {
  return defineRuntimeTool<typeof UploadToolInputSchema, O>({
    ...managedNativeFields(config, { name: 'upload', method: 'POST' }),
    input: UploadToolInputSchema,
    output: config.output,
    ...(config.present === undefined ? {} : { present: config.present }),
    handler: (ctx) =>
      runUploadOperation({
        files: config.files,
        path: ctx.input.path,
        signal: ctx.signal,
        upload: (file) => config.upload(file, ctx),
      }),
  });
}
