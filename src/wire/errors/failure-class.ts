/**
 * What class of failure a connection error is, read once here from the typed errors, for every
 * consumer that sorts failures: the telemetry's `error.type` and the probe's exit codes. Each
 * class carries the fields its consumers report (the challenge, the refused URL, the JSON-RPC
 * code); nothing else reads the error classes for this.
 */
import { ConnectionCredentialError } from './credential-error.js';
import {
  type AuthChallenge,
  ConnectionAuthorizationRequiredError,
  ConnectionInputRequiredError,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  ConnectionTimeoutError,
  ConnectionUrlError,
} from './errors.js';
import { ConnectionNetworkError, type NetworkFailure } from './network-error.js';

/** The class of a failure, with what its consumers report of it. */
export type ConnectionFailureClass =
  | { readonly kind: 'unauthorized'; readonly challenge: AuthChallenge | undefined }
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly challenge: AuthChallenge | undefined;
    }
  | {
      readonly kind: 'url';
      readonly url: string | undefined;
      readonly redirectTo: string | undefined;
    }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'network'; readonly failure: NetworkFailure }
  | { readonly kind: 'timeout' }
  | {
      readonly kind: 'protocol';
      readonly rpcCode: number | undefined;
      readonly rpcMessage: string | undefined;
    }
  | { readonly kind: 'credential' }
  | { readonly kind: 'input-required' }
  | { readonly kind: 'other' };

/** The class of `error`; `other` for anything that is not one of the connection errors. */
export function failureClassOf(error: unknown): ConnectionFailureClass {
  if (ConnectionAuthorizationRequiredError.isInstance(error)) {
    return { kind: 'unauthorized', challenge: error.challenge };
  }
  if (ConnectionRequestError.isInstance(error)) {
    return { kind: 'status', status: error.status, challenge: error.challenge };
  }
  if (ConnectionUrlError.isInstance(error)) {
    return { kind: 'url', url: error.url, redirectTo: error.redirectTo };
  }
  if (ConnectionResponseTooLargeError.isInstance(error)) return { kind: 'too-large' };
  if (ConnectionNetworkError.isInstance(error)) return { kind: 'network', failure: error.failure };
  if (ConnectionTimeoutError.isInstance(error)) return { kind: 'timeout' };
  if (ConnectionProtocolError.isInstance(error)) {
    return { kind: 'protocol', rpcCode: error.rpcCode, rpcMessage: error.rpcMessage };
  }
  if (ConnectionCredentialError.isInstance(error)) return { kind: 'credential' };
  if (ConnectionInputRequiredError.isInstance(error)) return { kind: 'input-required' };
  return { kind: 'other' };
}
