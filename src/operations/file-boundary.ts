/**
 * The managed file boundary (ADR 0081): every file a native operation writes or reads goes
 * through one root. Paths are checked by spelling (`file-path.ts`) and then on the real path
 * (symlinks that leave the root are refused); writes stream into an exclusively created,
 * non-following temporary file in the target's directory, capped while writing, and are moved
 * into place only on success (decision 0010), so a refused, failed or cancelled write leaves no
 * partial file.
 */
import { randomUUID } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import {
  type FileHandle,
  link,
  lstat,
  mkdir,
  open,
  realpath,
  rename,
  stat,
  unlink,
} from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { openChunks, readChunk, type WireBody } from '../wire/read/abortable-read.js';
import { mediaTypeForFileName } from '../wire/read/media-type.js';
import { FileBoundaryError, type FileBoundaryErrorCode } from './file-boundary-error.js';
import { boundaryPathSegments } from './file-path.js';

/** What to do when a write targets an existing file. */
export type ExistingFilePolicy = 'refuse' | 'replace';

/** Options of {@link createFileBoundary}. */
export interface FileBoundaryOptions {
  /** The directory every path is relative to; it must exist when the first file is touched. */
  readonly root: string;
  /** Default for writes onto an existing file: `'refuse'` (`FILE_EXISTS`) unless told. */
  readonly ifExists?: ExistingFilePolicy;
}

/** A file inside the boundary, as operations report it. */
export interface FileReference {
  /** The path relative to the root, `/`-separated, normalised. */
  readonly path: string;
  /** Size in bytes. */
  readonly size: number;
  /** Media type (given at write time, else implied by the extension). */
  readonly mediaType: string;
}

/** A file opened for reading. */
export interface FileSource extends FileReference {
  /** The content; cancel it to release the file early. */
  readonly stream: ReadableStream<Uint8Array>;
}

/** What {@link FileBoundary.write} accepts: a web stream, a Node stream, or bytes. */
export type FileBody = WireBody | Uint8Array;

/** Options of {@link FileBoundary.write}. */
export interface FileWriteOptions {
  /** Byte cap enforced while writing; one more byte is `FILE_TOO_LARGE`. */
  readonly maxBytes?: number;
  /** Reported media type; default from the extension. */
  readonly mediaType?: string;
  /** Aborting it stops the write (no file is left) and rejects with `signal.reason`. */
  readonly signal?: AbortSignal;
  /** Overrides the boundary's {@link FileBoundaryOptions.ifExists} for this write. */
  readonly ifExists?: ExistingFilePolicy;
  /** Called with the running byte total after each chunk (before the cap is checked). */
  readonly onBytes?: (totalBytes: number) => void;
}

/** Options of {@link FileBoundary.read}. */
export interface FileReadOptions {
  /** Aborting it rejects the open, or destroys the stream, with `signal.reason`. */
  readonly signal?: AbortSignal;
}

/** A root that files are written into and read from; see {@link createFileBoundary}. */
export interface FileBoundary {
  /** The root as configured (resolved to an absolute path). */
  readonly root: string;
  /** Streams `body` into `path`; resolves with the file's reference once it is in place. */
  write(path: string, body: FileBody, options?: FileWriteOptions): Promise<FileReference>;
  /** Opens the regular file at `path` for reading. */
  read(path: string, options?: FileReadOptions): Promise<FileSource>;
}

const NO_FOLLOW = constants.O_NOFOLLOW;

function refuse(code: FileBoundaryErrorCode, path: string, cause?: unknown): never {
  throw new FileBoundaryError({ code, path, ...(cause === undefined ? {} : { cause }) });
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: unknown } | null)?.code as string | undefined;
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Creates a boundary bound to `root`. No I/O happens until the first write or read. Refusals
 * are {@link FileBoundaryError}s with safe codes; other file-system failures are rethrown as
 * they are (the runner scrubs them).
 */
export function createFileBoundary(options: FileBoundaryOptions): FileBoundary {
  const root = resolve(options.root);
  const defaultPolicy = options.ifExists ?? 'refuse';
  let realRoot: Promise<string> | undefined;
  const rootPath = (): Promise<string> => {
    realRoot ??= realpath(root);
    return realRoot;
  };

  /** The real directory a path's parent names, created as needed, checked inside the root. */
  async function parentDirectory(path: string, segments: readonly string[]): Promise<string> {
    const base = await rootPath();
    let current = base;
    for (const segment of segments.slice(0, -1)) {
      const next = join(current, segment);
      let info = await lstatOrUndefined(next);
      if (info === undefined) {
        try {
          await mkdir(next);
        } catch (error) {
          if (errorCode(error) !== 'EEXIST') throw error;
        }
        info = await lstat(next);
      }
      if (info.isSymbolicLink()) {
        const real = await realpath(next).catch((cause: unknown) =>
          refuse('FILE_NOT_FOUND', path, cause),
        );
        if (!isInside(base, real)) refuse('FILE_OUTSIDE_ROOT', path);
        if (!(await stat(real)).isDirectory()) refuse('FILE_NOT_REGULAR', path);
        current = real;
      } else if (info.isDirectory()) {
        current = next;
      } else {
        refuse('FILE_NOT_REGULAR', path);
      }
    }
    return current;
  }

  /** Refuses a target that exists (by policy) or that is a link leaving the root. */
  async function checkTarget(path: string, target: string, policy: ExistingFilePolicy) {
    const info = await lstatOrUndefined(target);
    if (info === undefined) return;
    if (info.isSymbolicLink()) {
      const real = await realpath(target).catch(() => undefined);
      if (real === undefined || !isInside(await rootPath(), real))
        refuse('FILE_OUTSIDE_ROOT', path);
    }
    if (policy === 'refuse') refuse('FILE_EXISTS', path);
    if (info.isDirectory()) refuse('FILE_NOT_REGULAR', path);
  }

  async function write(
    path: string,
    body: FileBody,
    writeOptions: FileWriteOptions = {},
  ): Promise<FileReference> {
    const { signal, maxBytes } = writeOptions;
    signal?.throwIfAborted();
    const segments = boundaryPathSegments(path);
    const policy = writeOptions.ifExists ?? defaultPolicy;
    const directory = await parentDirectory(path, segments);
    const directoryId = await stat(directory);
    const name = segments[segments.length - 1] ?? '';
    const target = join(directory, name);
    await checkTarget(path, target, policy);
    signal?.throwIfAborted();

    // Exclusive create, never through a link: a name planted after the checks cannot redirect it.
    const temporary = join(directory, `.stitchkit-${randomUUID()}.part`);
    const handle = await open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW,
      0o644,
    );
    let placed = false;
    try {
      const size = await streamInto(handle, body, {
        path,
        maxBytes,
        signal,
        onBytes: writeOptions.onBytes,
      });
      await handle.close();
      signal?.throwIfAborted();
      // The directory written into must still be the one checked (not swapped for a link).
      const now = await realpath(directory).catch(() => undefined);
      const nowId = now === directory ? await stat(directory) : undefined;
      if (nowId === undefined || nowId.ino !== directoryId.ino || nowId.dev !== directoryId.dev) {
        refuse('FILE_OUTSIDE_ROOT', path);
      }
      await commit(path, temporary, target, policy);
      placed = true;
      return {
        path: segments.join('/'),
        size,
        mediaType: writeOptions.mediaType ?? mediaTypeForFileName(name),
      };
    } finally {
      await handle.close().catch(() => undefined);
      if (!placed) await unlink(temporary).catch(() => undefined);
    }
  }

  async function read(path: string, readOptions: FileReadOptions = {}): Promise<FileSource> {
    const { signal } = readOptions;
    signal?.throwIfAborted();
    const segments = boundaryPathSegments(path);
    const base = await rootPath();
    const logical = join(base, ...segments);
    const real = await realpath(logical).catch((cause: unknown) =>
      errorCode(cause) === 'ENOENT' || errorCode(cause) === 'ENOTDIR'
        ? refuse('FILE_NOT_FOUND', path, cause)
        : Promise.reject(cause),
    );
    if (!isInside(base, real)) refuse('FILE_OUTSIDE_ROOT', path);
    // Non-blocking, so a FIFO planted at the path cannot hang the open; fstat refuses it below.
    const handle = await open(real, constants.O_RDONLY | NO_FOLLOW | constants.O_NONBLOCK).catch(
      (cause: unknown) =>
        errorCode(cause) === 'ELOOP'
          ? refuse('FILE_OUTSIDE_ROOT', path, cause)
          : Promise.reject(cause),
    );
    try {
      const info = await handle.stat();
      if (!info.isFile()) refuse('FILE_NOT_REGULAR', path);
      if ((await realpath(real)) !== real) refuse('FILE_OUTSIDE_ROOT', path);
      signal?.throwIfAborted();
      const nodeStream = handle.createReadStream({ autoClose: true });
      signal?.addEventListener('abort', () => nodeStream.destroy(signal.reason as Error), {
        once: true,
      });
      const name = segments[segments.length - 1] ?? '';
      return {
        path: segments.join('/'),
        size: info.size,
        mediaType: mediaTypeForFileName(name),
        stream: Readable.toWeb(nodeStream) as ReadableStream<Uint8Array>,
      };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  return { root, write, read };
}

/** Moves the finished temporary file into place, by the existing-file policy. */
async function commit(
  path: string,
  temporary: string,
  target: string,
  policy: ExistingFilePolicy,
): Promise<void> {
  if (policy === 'replace') {
    // rename replaces a name (even a link) without following it.
    await rename(temporary, target).catch((cause: unknown) =>
      errorCode(cause) === 'EISDIR' || errorCode(cause) === 'ENOTEMPTY'
        ? refuse('FILE_NOT_REGULAR', path, cause)
        : Promise.reject(cause),
    );
    return;
  }
  // link fails on any existing name, a link planted since the check included.
  await link(temporary, target).catch((cause: unknown) =>
    errorCode(cause) === 'EEXIST' ? refuse('FILE_EXISTS', path, cause) : Promise.reject(cause),
  );
  await unlink(temporary);
}

/** Writes every chunk of `body` to `handle`, counting bytes against the cap; returns the size. */
async function streamInto(
  handle: FileHandle,
  body: FileBody,
  limits: {
    readonly path: string;
    readonly maxBytes: number | undefined;
    readonly signal: AbortSignal | undefined;
    readonly onBytes: ((totalBytes: number) => void) | undefined;
  },
): Promise<number> {
  const cap = limits.maxBytes ?? Number.POSITIVE_INFINITY;
  const signal = limits.signal ?? new AbortController().signal;
  const take = async (chunk: Uint8Array, total: number): Promise<number> => {
    const next = total + chunk.byteLength;
    limits.onBytes?.(next);
    if (next > cap) {
      throw new FileBoundaryError({
        code: 'FILE_TOO_LARGE',
        path: limits.path,
        ...(limits.maxBytes === undefined ? {} : { maxBytes: limits.maxBytes }),
      });
    }
    await handle.write(chunk);
    signal.throwIfAborted();
    return next;
  };
  if (body instanceof Uint8Array) return take(body, 0);
  const chunks = openChunks(body);
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await readChunk(chunks, signal);
      if (done) return total;
      total = await take(value, total);
    }
  } finally {
    chunks.release();
  }
}
