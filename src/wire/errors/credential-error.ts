/**
 * A credential that cannot be sent: the connection's token provider returned something other
 * than a string, or a token that would split its header (CR, LF, NUL), or a token for a cookie
 * that would end it (`;`). Refused typed before any I/O; the token itself is never echoed.
 */
import type { AppError } from '../../binding/kernel/app-error.js';
import { TOOL_ERROR_PROJECTION } from '../../binding/kernel/app-error.js';
import { hasHeaderBreak } from '../core/header-text.js';
import {
  brandFor,
  CONNECTION_ERROR_CODES,
  type ConnectionErrorScope,
  ConnectionOperationError,
  duringOperation,
  projection,
} from './errors.js';

/** What is wrong with the credential. */
export type CredentialProblem = 'not-a-string' | 'header-break' | 'cookie-separator';

const DESCRIBED: Readonly<Record<CredentialProblem, string>> = {
  'not-a-string': 'its token provider returned something other than a string or undefined',
  'header-break': 'its token contains CR, LF or NUL',
  'cookie-separator': 'its token is placed in a cookie and contains ";"',
};

/** The connection's credential was refused before it was sent. */
export class ConnectionCredentialError extends ConnectionOperationError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandFor(CONNECTION_ERROR_CODES.credential);
  override readonly name = 'ConnectionCredentialError';
  /** Stable code of this class. */
  readonly code = CONNECTION_ERROR_CODES.credential;
  /** What is wrong with it. */
  readonly problem: CredentialProblem;

  constructor(fields: ConnectionErrorScope & { readonly problem: CredentialProblem }) {
    super(
      fields,
      `refused its credential: ${DESCRIBED[fields.problem]}${duringOperation(fields.operation)}`,
    );
    this.problem = fields.problem;
  }

  /** `CONNECTION_CREDENTIAL_INVALID` / 500, not retryable: the host's provider must change. */
  [TOOL_ERROR_PROJECTION](): AppError {
    return projection(CONNECTION_ERROR_CODES.credential, 500, {
      message: 'The connection could not use its credential.',
      reason: 'credential-unusable',
      problem: this.problem,
      operation: this.operation,
      phase: this.phase,
    });
  }
}

/**
 * Why `token` cannot be sent as it is, or `undefined` when it can: not a string, a CR, LF or NUL
 * that would split its header, or (placed in a cookie) a `;` that would end the cookie and start
 * another one of the token's choosing. The one rule for every connection's credential.
 */
export function credentialProblemOf(
  token: unknown,
  placement: { readonly cookie: boolean },
): CredentialProblem | undefined {
  if (typeof token !== 'string') return 'not-a-string';
  if (hasHeaderBreak(token)) return 'header-break';
  return placement.cookie && token.includes(';') ? 'cookie-separator' : undefined;
}
