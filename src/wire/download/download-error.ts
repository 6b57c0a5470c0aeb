/**
 * The failure of a download (ADR 0081), built like every error of the package: `new
 * DownloadError(fields)`, where the class writes the message from the code. Messages and the
 * projection never carry the URL, the host or the address (a refused host must not teach the
 * model which internal addresses exist); the raw facts stay on the instance for host hooks.
 */
import {
  AppError,
  isRetryableStatus,
  TOOL_ERROR_PROJECTION,
  type ToolErrorProjecting,
} from '../../binding/kernel/app-error.js';
import { BrandedError } from '../../binding/kernel/branded-error.js';
import { brandSymbol } from '../../binding/kernel/type-guards.js';
import { describeNetworkFailure } from '../errors/network-error.js';
import { wireFaultOf } from '../errors/wire-failure.js';
import type { HostRefusal } from './address-policy.js';

/** Stable codes of a failed download. */
export type DownloadErrorCode =
  | 'DOWNLOAD_NOT_FOUND'
  | 'DOWNLOAD_INVALID_URL'
  | 'DOWNLOAD_HOST_REFUSED'
  | 'DOWNLOAD_REDIRECT_REFUSED'
  | 'DOWNLOAD_HTTP_ERROR'
  | 'DOWNLOAD_TOO_LARGE'
  | 'DOWNLOAD_TIMEOUT'
  | 'DOWNLOAD_FAILED';

/** What a {@link DownloadError} is built from. */
export interface DownloadErrorFields {
  /** The failure's code; it decides the message and the projected status. */
  readonly code: DownloadErrorCode;
  /** The upstream HTTP status (`DOWNLOAD_HTTP_ERROR`, `DOWNLOAD_REDIRECT_REFUSED`). */
  readonly upstreamStatus?: number;
  /** Why a host was refused (`DOWNLOAD_HOST_REFUSED`); kept off the projection. */
  readonly refusal?: HostRefusal;
  /** The refused or failing host, for host-side diagnostics only; never projected. */
  readonly host?: string;
  /** The byte cap (`DOWNLOAD_TOO_LARGE`). */
  readonly maxBytes?: number;
  /** The deadline that passed (`DOWNLOAD_TIMEOUT`). */
  readonly timeoutMs?: number;
  /** Which deadline passed (`DOWNLOAD_TIMEOUT`). */
  readonly deadline?: 'headers' | 'body';
  /** A more specific, still model-safe, reason (e.g. `too many redirects`). */
  readonly detail?: string;
  /** The underlying failure, in-process only. */
  readonly cause?: unknown;
}

const STATUS: Readonly<Record<DownloadErrorCode, number>> = {
  DOWNLOAD_NOT_FOUND: 404,
  DOWNLOAD_INVALID_URL: 400,
  DOWNLOAD_HOST_REFUSED: 403,
  DOWNLOAD_REDIRECT_REFUSED: 502,
  DOWNLOAD_HTTP_ERROR: 502,
  DOWNLOAD_TOO_LARGE: 413,
  DOWNLOAD_TIMEOUT: 504,
  DOWNLOAD_FAILED: 502,
};

function messageOf(fields: DownloadErrorFields): string {
  switch (fields.code) {
    case 'DOWNLOAD_NOT_FOUND':
      return 'Nothing to download';
    case 'DOWNLOAD_INVALID_URL':
      return `The download URL is not usable${fields.detail === undefined ? '' : ` (${fields.detail})`}`;
    case 'DOWNLOAD_HOST_REFUSED':
      return 'The download address is not allowed';
    case 'DOWNLOAD_REDIRECT_REFUSED':
      return `The download redirect was refused${fields.detail === undefined ? '' : ` (${fields.detail})`}`;
    case 'DOWNLOAD_HTTP_ERROR':
      return `HTTP ${fields.upstreamStatus ?? 'error'}`;
    case 'DOWNLOAD_TOO_LARGE':
      return `The file exceeds the ${fields.maxBytes ?? 0}-byte cap`;
    case 'DOWNLOAD_TIMEOUT':
      return `The download ${fields.deadline === 'body' ? 'body' : 'response headers'} did not arrive within ${fields.timeoutMs ?? 0} ms`;
    case 'DOWNLOAD_FAILED':
      return `The download could not be completed${fields.detail === undefined ? '' : ` (${fields.detail})`}`;
  }
}

/** A download failed; `code` says how. Projects onto `AppError(code, message, status)`. */
export class DownloadError extends BrandedError implements ToolErrorProjecting {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandSymbol('error.DOWNLOAD');
  override readonly name = 'DownloadError';
  /** Stable code, also the projected tool error code. */
  readonly code: DownloadErrorCode;
  /** HTTP-like status of the projection. */
  readonly status: number;
  /** The upstream HTTP status, when one was received. */
  readonly upstreamStatus: number | undefined;
  /** Why the host was refused, for `DOWNLOAD_HOST_REFUSED`. */
  readonly refusal: HostRefusal | undefined;
  /** The host involved (host-side only). */
  readonly host: string | undefined;
  /** The byte cap, for `DOWNLOAD_TOO_LARGE`. */
  readonly maxBytes: number | undefined;
  /** The deadline, for `DOWNLOAD_TIMEOUT`. */
  readonly timeoutMs: number | undefined;

  constructor(fields: DownloadErrorFields) {
    super(messageOf(fields), 'cause' in fields ? { cause: fields.cause } : undefined);
    this.code = fields.code;
    this.status = STATUS[fields.code];
    this.upstreamStatus = fields.upstreamStatus;
    this.refusal = fields.refusal;
    this.host = fields.host;
    this.maxBytes = fields.maxBytes;
    this.timeoutMs = fields.timeoutMs;
  }

  /** The model-safe projection: code, message, status; retryable only for a failing upstream. */
  [TOOL_ERROR_PROJECTION](): AppError {
    const retryable =
      this.code === 'DOWNLOAD_FAILED' ||
      (this.code === 'DOWNLOAD_HTTP_ERROR' &&
        this.upstreamStatus !== undefined &&
        isRetryableStatus(this.upstreamStatus));
    return new AppError(this.code, {
      message: this.message,
      status: this.status,
      retryable,
      details: {
        message: this.message,
        ...(this.code === 'DOWNLOAD_HTTP_ERROR' && this.upstreamStatus !== undefined
          ? { upstreamStatus: this.upstreamStatus }
          : {}),
        ...(this.maxBytes === undefined ? {} : { maxBytes: this.maxBytes }),
      },
    });
  }
}

/** Words for an HTTP-level fault of a download, model-safe (no host, no address). */
const DOWNLOAD_HTTP_FAULT = 'the answer broke HTTP/1.1';
/** Words for a download head past its bound. */
const DOWNLOAD_HEAD_TOO_LARGE = 'the answer head was too large';

/**
 * `error` as it must leave a download: `signal.reason` once aborted, a {@link DownloadError}
 * unchanged, anything else `DOWNLOAD_FAILED` saying which failure (never where), its cause the raw
 * error. The download's counterpart of the wire's one seam (`wireFailure`, decision 0035), over
 * the same {@link wireFaultOf}.
 */
export function downloadFailure(error: unknown, host: string, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason;
  if (DownloadError.isInstance(error)) return error;
  const fault = wireFaultOf(error);
  const detail =
    fault.kind === 'network'
      ? describeNetworkFailure(fault.failure)
      : fault.kind === 'http'
        ? DOWNLOAD_HTTP_FAULT
        : DOWNLOAD_HEAD_TOO_LARGE;
  return new DownloadError({ code: 'DOWNLOAD_FAILED', host, cause: error, detail });
}
