/**
 * The transport-neutral core of the download operation (ADR 0081): one run of the `download`
 * machine through `runMachine`, the guarded fetch and the file boundary as its dependencies.
 * Shared by `defineDownloadTool` and the raw `mountDownload` adapter.
 */

import { assertTimeoutMs } from '../machines/deadline.js';
import { makeDownloadActors } from '../machines/download/download.actors.js';
import { downloadMachine } from '../machines/download/download.machine.js';
import {
  DEFAULT_DOWNLOAD_BODY_TIMEOUT_MS,
  DEFAULT_DOWNLOAD_HEADER_TIMEOUT_MS,
  DEFAULT_DOWNLOAD_MAX_BYTES,
  isProgressDue,
} from '../machines/download/download.policy.js';
import type {
  InspectionObserver,
  TransitionLabels,
  TransitionObserver,
} from '../machines/observe.js';
import { runMachine } from '../machines/run-machine.js';
import { fetchForDownload, type HostResolver } from '../wire/download/download-fetch.js';
import { parseProxyOption } from '../wire/http/dispatchers.js';
import type { ExistingFilePolicy, FileBoundary, FileReference } from './file-boundary.js';
import { normalizeBoundaryPath } from './file-path.js';

/** How far a download has got. */
export interface DownloadProgress {
  /** Body bytes written so far. */
  readonly receivedBytes: number;
  /** The declared length, when the server sent one. */
  readonly totalBytes: number | undefined;
}

/** The limits and host policy of a download, checked once by {@link resolveDownloadLimits}. */
export interface DownloadLimits {
  /** Byte cap; default 100 MiB. */
  readonly maxBytes?: number;
  /** Header deadline in ms (URL resolution and every redirect hop); default 15 000. */
  readonly timeoutMs?: number;
  /** Body deadline in ms; default 120 000. */
  readonly bodyTimeoutMs?: number;
  /** Allow loopback, private and other non-public hosts; default false. */
  readonly allowPrivateHosts?: boolean;
  /** `host[:port]` values exempt from the address refusal. */
  readonly allowHosts?: readonly string[];
  /** Name resolution; default the system resolver (tests inject one). */
  readonly resolveHost?: HostResolver;
  /**
   * Through a proxy: `'env'` (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`) or a proxy URL; the proxy
   * tunnels to the address the download checked. Default none.
   */
  readonly proxy?: 'env' | string;
  /** What to do when the file exists; default the boundary's (refuse unless configured). */
  readonly ifExists?: ExistingFilePolicy;
}

/** Options of {@link runDownloadOperation}. */
export interface DownloadOperationOptions extends DownloadLimits {
  /** The application's URL; `null` or `undefined` is `DOWNLOAD_NOT_FOUND`. */
  resolveUrl(context: { readonly signal: AbortSignal }): unknown;
  /** Where the file goes. */
  readonly files: FileBoundary;
  /** The boundary path asked for; default the URL's base name and an extension. */
  readonly path?: string;
  /** Caller cancellation; the download rejects with its exact reason and leaves no file. */
  readonly signal?: AbortSignal;
  /** Called as bytes arrive, at most every 250 ms, and with the final size; a throw is contained. */
  readonly onProgress?: (progress: DownloadProgress) => void;
  /** Receives the machine's transition records. */
  readonly observe?: TransitionObserver;
  /** Handed to the actor unchanged. */
  readonly inspect?: InspectionObserver;
  /** Labels for the transition records. */
  readonly labels?: TransitionLabels;
}

/**
 * Checks the limits (RangeError naming the option) and fills the defaults; the definitions call
 * it once at definition time, the core once per run.
 */
export function resolveDownloadLimits(limits: DownloadLimits) {
  const parsed = parseProxyOption(limits.proxy);
  if (!parsed.valid) throw new TypeError("proxy must be 'env' or an http(s) proxy URL");
  const maxBytes = limits.maxBytes ?? DEFAULT_DOWNLOAD_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw new RangeError(
      `maxBytes must be a positive safe integer number of bytes; got ${maxBytes}`,
    );
  }
  return {
    maxBytes,
    /** The proxy, parsed: `'env'`, its URL, or none. */
    proxy: parsed.proxy,
    headerTimeoutMs: assertTimeoutMs(
      limits.timeoutMs ?? DEFAULT_DOWNLOAD_HEADER_TIMEOUT_MS,
      'timeoutMs',
    ),
    bodyTimeoutMs: assertTimeoutMs(
      limits.bodyTimeoutMs ?? DEFAULT_DOWNLOAD_BODY_TIMEOUT_MS,
      'bodyTimeoutMs',
    ),
  };
}

function contained(report: (() => void) | undefined): void {
  try {
    report?.();
  } catch {
    // Progress is advisory: a failing reporter never changes the download's outcome.
  }
}

/**
 * Downloads one file into the boundary. Resolves with its reference once it is in place;
 * rejects with a `DownloadError` (not found, refused host, HTTP status, too large, timeout,
 * failed), a `FileBoundaryError`, the application's own error, or the caller's `signal.reason`.
 * It settles only after a stopped transfer has removed its temporary file.
 */
export async function runDownloadOperation(
  options: DownloadOperationOptions,
): Promise<FileReference> {
  const limits = resolveDownloadLimits(options);
  const requestedPath =
    options.path === undefined ? undefined : normalizeBoundaryPath(options.path);
  options.signal?.throwIfAborted();
  const pending: Promise<unknown>[] = [];
  let lastReportAt: number | undefined;
  let lastReportedBytes: number | undefined;
  let declared: number | undefined;
  const machine = downloadMachine.provide({
    actors: makeDownloadActors({
      resolveUrl: (context) => options.resolveUrl(context),
      fetch: (url, signal) =>
        fetchForDownload(url, {
          signal,
          ...(options.allowPrivateHosts === undefined
            ? {}
            : { allowPrivateHosts: options.allowPrivateHosts }),
          ...(options.allowHosts === undefined ? {} : { allowHosts: options.allowHosts }),
          ...(options.resolveHost === undefined ? {} : { resolveHost: options.resolveHost }),
          ...(limits.proxy === undefined ? {} : { proxy: limits.proxy }),
        }),
      write: (path, body, writeOptions) =>
        options.files.write(path, body, {
          ...writeOptions,
          ...(options.ifExists === undefined ? {} : { ifExists: options.ifExists }),
        }),
      onBytes: (receivedBytes, declaredBytes) => {
        declared = declaredBytes ?? undefined;
        const now = Date.now();
        if (options.onProgress === undefined || !isProgressDue(lastReportAt, now)) return;
        lastReportAt = now;
        lastReportedBytes = receivedBytes;
        contained(() => options.onProgress?.({ receivedBytes, totalBytes: declared }));
      },
      track: (work) => {
        pending.push(work);
      },
    }),
  });
  try {
    const output = await runMachine(
      machine,
      {
        maxBytes: limits.maxBytes,
        headerTimeoutMs: limits.headerTimeoutMs,
        bodyTimeoutMs: limits.bodyTimeoutMs,
        ...(requestedPath === undefined ? {} : { requestedPath }),
      },
      {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.observe === undefined ? {} : { observe: options.observe }),
        ...(options.inspect === undefined ? {} : { inspect: options.inspect }),
        labels: { operation: 'download', ...options.labels },
      },
    );
    if (lastReportedBytes !== output.file.size) {
      const final = { receivedBytes: output.file.size, totalBytes: declared ?? output.file.size };
      contained(() => options.onProgress?.(final));
    }
    return output.file;
  } finally {
    await Promise.allSettled(pending);
  }
}

/** `"<n> bytes"` or `"<n> of <total> bytes"`, for progress messages. */
export function downloadProgressMessage(progress: DownloadProgress): string {
  return progress.totalBytes === undefined
    ? `${progress.receivedBytes} bytes`
    : `${progress.receivedBytes} of ${progress.totalBytes} bytes`;
}
