/**
 * The transport-neutral core of the upload operation (ADR 0081): open the file inside the
 * boundary, hand it to the application's upload with the call's signal, release the file.
 * Shared by `defineUploadTool` and the raw `mountUpload` adapter.
 */
import type { FileBoundary, FileSource } from './file-boundary.js';

/** Options of {@link runUploadOperation}. */
export interface UploadOperationOptions<T> {
  /** Where the file is. */
  readonly files: FileBoundary;
  /** Its path inside the boundary. */
  readonly path: string;
  /** Caller cancellation; an aborted call opens no file. */
  readonly signal?: AbortSignal;
  /** The application's upload of the opened file. */
  upload(source: FileSource, signal: AbortSignal): T | Promise<T>;
}

/**
 * Opens `path` (boundary refusals are `FileBoundaryError`s), runs `upload`, and resolves with its
 * result. An unread stream is cancelled afterwards, so the file is released on every outcome.
 */
export async function runUploadOperation<T>(options: UploadOperationOptions<T>): Promise<T> {
  const signal = options.signal ?? new AbortController().signal;
  signal.throwIfAborted();
  const source = await options.files.read(options.path, { signal });
  try {
    return await options.upload(source, signal);
  } finally {
    if (!source.stream.locked) await source.stream.cancel().catch(() => undefined);
  }
}
