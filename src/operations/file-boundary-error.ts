/**
 * The refusals of the managed file boundary (ADR 0081): one class, a closed set of safe codes.
 * Messages never echo the path or the root, so the projection is safe to show a model.
 */
import {
  AppError,
  TOOL_ERROR_PROJECTION,
  type ToolErrorProjecting,
} from '../binding/kernel/app-error.js';
import { BrandedError } from '../binding/kernel/branded-error.js';
import { brandSymbol } from '../binding/kernel/type-guards.js';

/** The safe codes of a refused file operation. */
export type FileBoundaryErrorCode =
  | 'FILE_INVALID_PATH'
  | 'FILE_OUTSIDE_ROOT'
  | 'FILE_NOT_FOUND'
  | 'FILE_NOT_REGULAR'
  | 'FILE_TOO_LARGE'
  | 'FILE_EXISTS';

/** What a {@link FileBoundaryError} is built from. */
export interface FileBoundaryErrorFields {
  /** The refusal; it decides message and status. */
  readonly code: FileBoundaryErrorCode;
  /** The path as the caller gave it (host-side only; never in the message). */
  readonly path?: string;
  /** The byte cap, for `FILE_TOO_LARGE`. */
  readonly maxBytes?: number;
  /** The underlying failure, in-process only. */
  readonly cause?: unknown;
}

const MESSAGE: Readonly<Record<FileBoundaryErrorCode, string>> = {
  FILE_INVALID_PATH: 'The path is not a relative path inside the file area',
  FILE_OUTSIDE_ROOT: 'The path leads outside the file area',
  FILE_NOT_FOUND: 'No such file',
  FILE_NOT_REGULAR: 'The path is not a regular file',
  FILE_TOO_LARGE: 'The file exceeds the byte cap',
  FILE_EXISTS: 'A file already exists at that path',
};

const STATUS: Readonly<Record<FileBoundaryErrorCode, number>> = {
  FILE_INVALID_PATH: 400,
  FILE_OUTSIDE_ROOT: 403,
  FILE_NOT_FOUND: 404,
  FILE_NOT_REGULAR: 400,
  FILE_TOO_LARGE: 413,
  FILE_EXISTS: 409,
};

/** A file operation the boundary refused. Projects onto `AppError(code, message, status)`. */
export class FileBoundaryError extends BrandedError implements ToolErrorProjecting {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandSymbol('error.FILE_BOUNDARY');
  override readonly name = 'FileBoundaryError';
  /** Stable code, also the projected tool error code. */
  readonly code: FileBoundaryErrorCode;
  /** HTTP-like status of the projection. */
  readonly status: number;
  /** The path as given (host-side only). */
  readonly path: string | undefined;
  /** The byte cap, for `FILE_TOO_LARGE`. */
  readonly maxBytes: number | undefined;

  constructor(fields: FileBoundaryErrorFields) {
    const message =
      fields.code === 'FILE_TOO_LARGE' && fields.maxBytes !== undefined
        ? `The file exceeds the ${fields.maxBytes}-byte cap`
        : MESSAGE[fields.code];
    super(message, 'cause' in fields ? { cause: fields.cause } : undefined);
    this.code = fields.code;
    this.status = STATUS[fields.code];
    this.path = fields.path;
    this.maxBytes = fields.maxBytes;
  }

  /** The model-safe projection: code, message and status; never retryable. */
  [TOOL_ERROR_PROJECTION](): AppError {
    return new AppError(this.code, {
      message: this.message,
      status: this.status,
      retryable: false,
      details: {
        message: this.message,
        ...(this.maxBytes === undefined ? {} : { maxBytes: this.maxBytes }),
      },
    });
  }
}
