/**
 * Every per-call alternative as plain data, so the runner can name one and a client child can build
 * it: the same factories as before (`clients.ts`, `legacy-clients.ts`, `openapi-clients.ts`), one
 * switch from a spec to the alternative it describes.
 */
import {
  type AlternativeId,
  type CallAlternative,
  oursAlternative,
  rawFetchAlternative,
  rawUndiciAlternative,
  sdkPerCallAlternative,
  sdkSharedAlternative,
} from './clients.js';
import { oursProbeAlternative, sdkSsePerCallAlternative } from './legacy-clients.js';
import {
  oursOpenApiAlternative,
  rawFetchOpenApiAlternative,
  rawUndiciOpenApiAlternative,
} from './openapi-clients.js';
import {
  ours2025Alternative,
  rawFetchStatelessAlternative,
  rawUndiciModernAlternative,
  sdk2PerCallAlternative,
} from './stateless-clients.js';
import { oursTelemetryAlternative, type TelemetryId } from './telemetry-clients.js';

/** One alternative against one server URL, and the id its results are reported under. */
export type AlternativeSpec =
  | { readonly kind: 'ours'; readonly id: 'ours'; readonly url: string }
  | { readonly kind: 'ours-probe'; readonly id: 'ours'; readonly url: string }
  | { readonly kind: 'ours-sse-type'; readonly id: 'ours-sse-type'; readonly url: string }
  | {
      readonly kind: 'sdk-per-call';
      readonly id: 'sdk-per-call' | 'sdk-per-call-shared-validator';
      readonly url: string;
      readonly stateful: boolean;
    }
  | { readonly kind: 'sdk-shared'; readonly id: 'sdk-shared'; readonly url: string }
  | {
      readonly kind: 'raw';
      readonly id: 'raw-fetch' | 'raw-undici';
      readonly url: string;
      readonly stateful: boolean;
    }
  | {
      readonly kind: 'sdk-sse';
      readonly id: 'sdk-sse' | 'sdk-sse-discovering';
      readonly url: string;
    }
  | {
      readonly kind: 'openapi';
      readonly id: 'ours-openapi' | 'raw-fetch' | 'raw-undici';
      readonly url: string;
    }
  | { readonly kind: 'ours-2025'; readonly id: 'ours-2025'; readonly url: string }
  | {
      readonly kind: 'sdk2';
      readonly id: 'sdk2-known' | 'sdk2-known-shared-validator' | 'sdk2-auto';
      readonly url: string;
    }
  | {
      readonly kind: 'raw-stateless';
      readonly id: 'raw-fetch-stateless' | 'raw-undici-modern';
      readonly url: string;
    }
  | { readonly kind: 'ours-telemetry'; readonly id: TelemetryId; readonly url: string };

/** The alternatives of a Streamable HTTP server, by the id their results are reported under. */
export const STREAMABLE_IDS = [
  'ours',
  'sdk-per-call',
  'sdk-per-call-shared-validator',
  'sdk-shared',
  'raw-fetch',
  'raw-undici',
] as const;

/** One of {@link STREAMABLE_IDS}. */
export type StreamableId = (typeof STREAMABLE_IDS)[number];

/** Whether `value` (a command-line argument, say) is a {@link StreamableId}. */
export function isStreamableId(value: unknown): value is StreamableId {
  return STREAMABLE_IDS.some((id) => id === value);
}

/** The spec of Streamable alternative `id` against `url` (`stateful`: the server assigns sessions). */
export function streamableSpec(id: StreamableId, url: string, stateful: boolean): AlternativeSpec {
  switch (id) {
    case 'ours':
      return { kind: 'ours', id, url };
    case 'sdk-per-call':
    case 'sdk-per-call-shared-validator':
      return { kind: 'sdk-per-call', id, url, stateful };
    case 'sdk-shared':
      return { kind: 'sdk-shared', id, url };
    case 'raw-fetch':
    case 'raw-undici':
      return { kind: 'raw', id, url, stateful };
  }
}

/**
 * The client process `spec`'s alternative runs in: one per client, as a host runs one: ours (its
 * Streamable, legacy and OpenAPI alternatives alike), the SDK per call (Streamable and legacy),
 * the same with one shared validator, the SDK shared, and each raw floor; the v2 SDK per call
 * (known and `'auto'`), and the same with one shared validator.
 */
export function clientProcessOf(spec: AlternativeSpec): AlternativeId {
  switch (spec.id) {
    case 'ours-sse-type':
    case 'ours-openapi':
      return 'ours';
    case 'sdk-sse':
    case 'sdk-sse-discovering':
      return 'sdk-per-call';
    case 'ours-2025':
      return 'ours';
    case 'sdk2-auto':
      return 'sdk2-known';
    case 'raw-fetch-stateless':
      return 'raw-fetch';
    case 'raw-undici-modern':
      return 'raw-undici';
    default:
      return spec.id;
  }
}

/** Builds the alternative `spec` describes; its `id` is the spec's. */
export async function buildAlternative(spec: AlternativeSpec): Promise<CallAlternative> {
  const built = await build(spec);
  if (built.id !== spec.id) throw new Error(`spec ${spec.id} built alternative ${built.id}`);
  return built;
}

function build(spec: AlternativeSpec): CallAlternative | Promise<CallAlternative> {
  switch (spec.kind) {
    case 'ours':
      return oursAlternative(spec.url);
    case 'ours-probe':
      return oursProbeAlternative(spec.url);
    case 'ours-sse-type':
      return oursAlternative(spec.url, {
        id: 'ours-sse-type',
        name: "ours (type: 'sse')",
        config: { name: 'bench-sse', transport: { url: spec.url, type: 'sse' } },
      });
    case 'sdk-per-call':
      return sdkPerCallAlternative(spec.url, spec.stateful, {
        sharedValidator: spec.id === 'sdk-per-call-shared-validator',
      });
    case 'sdk-shared':
      return sdkSharedAlternative(spec.url);
    case 'raw':
      return spec.id === 'raw-fetch'
        ? rawFetchAlternative(spec.url, spec.stateful)
        : rawUndiciAlternative(spec.url, spec.stateful);
    case 'sdk-sse':
      return sdkSsePerCallAlternative(spec.url, { discover: spec.id === 'sdk-sse-discovering' });
    case 'openapi':
      if (spec.id === 'ours-openapi') return oursOpenApiAlternative(spec.url);
      return spec.id === 'raw-fetch'
        ? rawFetchOpenApiAlternative(spec.url)
        : rawUndiciOpenApiAlternative(spec.url);
    case 'ours-2025':
      return ours2025Alternative(spec.url);
    case 'sdk2':
      return sdk2PerCallAlternative(spec.url, {
        negotiation: spec.id === 'sdk2-auto' ? 'auto' : 'known',
        sharedValidator: spec.id === 'sdk2-known-shared-validator',
      });
    case 'raw-stateless':
      return spec.id === 'raw-fetch-stateless'
        ? rawFetchStatelessAlternative(spec.url)
        : rawUndiciModernAlternative(spec.url);
    case 'ours-telemetry':
      return oursTelemetryAlternative(spec.url, spec.id);
  }
}
