/** Types shared by the `download` machine, its guards and its actors (ADR 0081). */
import type { CancelEvent, MachineResult } from '../run-machine.js';

/** Input of the `download` machine. */
export interface DownloadMachineInput {
  /** The boundary path the caller asked for (`pathFromInput`); else the name comes from the URL. */
  readonly requestedPath?: string;
  /** Byte cap on the file, declared or streamed; default 100 MiB. */
  readonly maxBytes?: number;
  /** Deadline from the start until the final response's headers, in ms; default 15 000. */
  readonly headerTimeoutMs?: number;
  /** Deadline for the body once the headers arrived, in ms; default 120 000. */
  readonly bodyTimeoutMs?: number;
  /** Start time in epoch milliseconds; default `Date.now()` when the actor starts. */
  readonly startedAt?: number;
}

/** What the final response's head says, as data. */
export interface DownloadHead {
  /** HTTP status of the final response (after redirects). */
  readonly status: number;
  /** `Content-Length` when it is a plain number, else `null`. */
  readonly declaredBytes: number | null;
  /** The `Content-Type` essence (`image/png`), else `null`. */
  readonly mediaType: string | null;
  /** The path of the URL that answered (for the file name). */
  readonly urlPath: string;
}

/** A file the download wrote, as the boundary reports it. */
export interface DownloadedFile {
  /** Path relative to the boundary root. */
  readonly path: string;
  /** Size in bytes. */
  readonly size: number;
  /** Media type. */
  readonly mediaType: string;
}

/** The command the machine sends the `transfer` actor once the head passed its checks. */
export interface DownloadWriteCommand {
  readonly type: 'WRITE';
  /** The boundary path to write. */
  readonly path: string;
  /** The media type to report. */
  readonly mediaType: string;
  /** The byte cap enforced while writing. */
  readonly maxBytes: number;
}

/** What the `transfer` actor receives. */
export interface DownloadTransferInput {
  /** The URL the application resolved. */
  readonly url: string;
}

/** Events of the `download` machine: cancellation and what the `transfer` actor reports. */
export type DownloadEvent =
  | CancelEvent
  | { readonly type: 'HEADERS'; readonly head: DownloadHead }
  | { readonly type: 'WRITTEN'; readonly file: DownloadedFile }
  | { readonly type: 'TRANSFER_FAILED'; readonly error: unknown };

/** Output of the `download` machine: the file reference, or the failure. */
export type DownloadMachineOutput = MachineResult<{ readonly file: DownloadedFile }>;

/** Context of the `download` machine; data only. */
export interface DownloadContext {
  readonly requestedPath: string | undefined;
  readonly maxBytes: number;
  readonly headerTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  /** Absolute header deadline: it spans resolving the URL and every redirect hop. */
  readonly headerDeadlineAt: number;
  /** The resolved URL, once known. */
  readonly url: string | undefined;
  /** Where the body goes, decided from the head. */
  readonly target: { readonly path: string; readonly mediaType: string } | undefined;
  /** The outcome, set on the edge into `closed`. */
  readonly outcome: DownloadMachineOutput | undefined;
}
