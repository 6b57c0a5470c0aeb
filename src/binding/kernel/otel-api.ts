/**
 * The optional peer `@opentelemetry/api` (decision 0032): loaded once, on first use, and only
 * here. Absent, every telemetry path of the package is a no-op; present, its globals (the
 * providers, the context manager and the propagator the host registered) are the host's, shared
 * across copies of the API by the API itself.
 */
import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';

/** The OpenTelemetry API, as this package uses it. */
export type Otel = typeof OtelApi;

const requireOptional = createRequire(import.meta.url);

/** The API once looked for: the module, or `null` when it is not installed. */
let loaded: Otel | null | undefined;

/** The OpenTelemetry API when the host installed it, else `undefined`; looked for once. */
export function otelApi(): Otel | undefined {
  if (loaded === undefined) {
    try {
      loaded = requireOptional('@opentelemetry/api') as Otel;
    } catch {
      loaded = null;
    }
  }
  return loaded ?? undefined;
}

/** Whether the host registered a propagator that writes anything (the default one writes nothing). */
export function propagates(api: Otel): boolean {
  return api.propagation.fields().length > 0;
}

/**
 * Runs `run` in the trace context a request's `_meta` carries (`traceparent`, `tracestate`,
 * `baggage`), extracted by the host's propagator, so the spans it starts continue the caller's
 * trace; runs it as it is when the API is absent, nothing propagates, or `_meta` carries none.
 */
export function inRemoteContext<T>(meta: unknown, run: () => T): T {
  const api = otelApi();
  if (api === undefined || typeof meta !== 'object' || meta === null || !propagates(api)) {
    return run();
  }
  const carrier = meta as Readonly<Record<string, unknown>>;
  const extracted = api.propagation.extract(api.context.active(), carrier, stringFieldsOf);
  return api.context.with(extracted, run);
}

/** Reads only string fields of an untrusted `_meta`. */
const stringFieldsOf: OtelApi.TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier).filter((key) => typeof carrier[key] === 'string'),
  get: (carrier, key) => {
    const value = Object.hasOwn(carrier, key) ? carrier[key] : undefined;
    return typeof value === 'string' ? value : undefined;
  },
};
