/**
 * Types of the `specLoad` machine: loading an OpenAPI document from a URL. No credential is ever
 * part of a spec load, so the context holds no secret.
 */
import type { HostFence, PhaseLimits } from '../../wire/index.js';
import type { CancelEvent, MachineResult } from '../run-machine.js';

/** What a run of `specLoad` needs. */
export interface SpecLoadInput {
  /** The connection's name; used in host-facing error messages only. */
  readonly connectionName: string;
  /** The document's http(s) URL. */
  readonly url: string;
  /** The spec URL's host plus the connection's `allowHosts`. */
  readonly fence: HostFence;
  /** The discovery deadline and byte ceiling. */
  readonly limits: PhaseLimits;
}

/** How the load ended, as the `fetchSpec` actor reports it. */
export type SpecExchange =
  /** A 2xx answer whose body is a JSON object. */
  | { readonly kind: 'document'; readonly document: Record<string, unknown> }
  /** A 2xx answer that is not a JSON object (YAML, HTML, an array...). */
  | { readonly kind: 'malformed'; readonly violation: string }
  /** A non-2xx answer and the excerpt of its body. */
  | { readonly kind: 'http-error'; readonly status: number; readonly body: string };

/** Input of the `fetchSpec` actor. */
export type FetchSpecInput = Omit<SpecLoadInput, 'limits'> & { readonly maxBytes: number };

/** Events `specLoad` accepts from outside. */
export type SpecLoadEvent = CancelEvent;

/** Output of `specLoad`: the parsed document, or the failure. */
export type SpecLoadOutput = MachineResult<{ readonly document: Record<string, unknown> }>;

/** Context of `specLoad`; data only. */
export interface SpecLoadContext extends SpecLoadInput {
  /** Set on the edge into `closed`. */
  readonly outcome: SpecLoadOutput | undefined;
}
