/**
 * Types of the `openApiCall` machine (one OpenAPI request): its input, context, events and output,
 * and what its actors report. The request arrives fully built from the tool's arguments except for
 * the credential, which the run resolves for its own principal and places where the operation's
 * security says. Context holds data only; the token and principal sit in it wrapped.
 */
import type { OpenApiRequest } from '../../openapi/types.js';
import type { HttpRefusal } from '../../wire/http/refusal.js';
import type { HostFence, PhaseLimits, WireTraceContext } from '../../wire/index.js';
import type { CancelEvent, MachineResult } from '../run-machine.js';
import type { SecretValue } from '../secret-value.js';

/** What a run of `openApiCall` needs; built per call by the connection layer. */
export interface OpenApiCallInput {
  /** The connection's name; used in host-facing error messages only. */
  readonly connectionName: string;
  readonly request: OpenApiRequest;
  /** Hosts the request may go to: checked again on every call, before any I/O. */
  readonly fence: HostFence;
  /** The call's handler context, for the token provider; opaque to the machine. */
  readonly principal?: unknown;
  /**
   * Whether the connection has a token provider to call for this run; default `true`. Without one
   * there is nothing to resolve: the run skips `credentials` and its actor. (A provider is still
   * called for an anonymous operation, so a provider that refuses a principal refuses every call.)
   */
  readonly resolvesToken?: boolean;
  /** The call's deadline (headers and body) and raw byte ceiling. */
  readonly limits: PhaseLimits;
  /** The connection's static headers, wrapped so no snapshot shows them; default none. */
  readonly headers?: Readonly<Record<string, SecretValue>>;
  /** The call's trace context, whose headers the request carries (decision 0032). */
  readonly trace?: WireTraceContext;
}

/** How the request ended, as the `sendRequest` actor reports it. */
export type OpenApiExchange = {
  /** What the answer read and no `BYTES_READ` reported (absent: none). */
  readonly unreportedBytes?: number;
} /** A 2xx answer whose body decoded (204 and HEAD: `null`; JSON types: JSON; else text). */ & (
  | { readonly kind: 'decoded'; readonly status: number; readonly value: unknown }
  /** A 2xx answer with a JSON content type whose body is not JSON. */
  | { readonly kind: 'malformed'; readonly violation: string }
  /** A non-2xx answer as the wire reads it: status, body excerpt, challenge, `Retry-After`. */
  | ({ readonly kind: 'http-error' } & HttpRefusal)
);

/** Input of the `sendRequest` actor. */
export interface SendRequestInput {
  readonly connectionName: string;
  readonly request: OpenApiRequest;
  readonly token: SecretValue | undefined;
  /** The connection's static headers, placed after the request's own. */
  readonly headers: Readonly<Record<string, SecretValue>> | undefined;
  /** The call's trace context, written after the connection's headers. */
  readonly trace: WireTraceContext | undefined;
  readonly fence: HostFence;
  readonly maxBytes: number;
  /** Receives what the body read, for the errors that report it. */
  readonly reporter: { send(event: BytesReadEvent): void };
}

/** Progress of the body read, so a deadline can say how much had arrived. */
export interface BytesReadEvent {
  readonly type: 'BYTES_READ';
  /** Raw bytes read since the last report (the same payload as every machine's `BYTES_READ`). */
  readonly bytes: number;
}

/** Events `openApiCall` accepts: the caller's cancellation and the actor's byte reports. */
export type OpenApiCallEvent = CancelEvent | BytesReadEvent;

/** Output of `openApiCall`: the decoded answer (with its status), or the failure. */
export type OpenApiCallOutput = MachineResult<{
  readonly status: number;
  readonly value: unknown;
}>;

/** Context of `openApiCall`; data only. */
export interface OpenApiCallContext
  extends Omit<OpenApiCallInput, 'principal' | 'resolvesToken' | 'trace'> {
  readonly resolvesToken: boolean;
  readonly trace: WireTraceContext | undefined;
  readonly principal: SecretValue<unknown> | undefined;
  readonly token: SecretValue | undefined;
  /** Absolute deadline of the whole call, credentials included. */
  readonly deadlineAt: number;
  /** Raw bytes read so far. */
  readonly readBytes: number;
  /** Set on the edge into `closed`. */
  readonly outcome: OpenApiCallOutput | undefined;
}
