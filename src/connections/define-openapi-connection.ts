/**
 * `defineOpenApiConnection`: checks an OpenAPI connection's configuration once, at definition
 * time (name, spec source, base URL, hosts, limits, transports, hooks) and keeps the resolved form
 * for the mount. No I/O happens here: a URL spec is loaded by `mountConnections`.
 */
import type { RuntimeToolHandlerContext, ToolTransport } from '../binding/index.js';
import { makeOpenApiCallActors } from '../machines/open-api-call/open-api-call.actors.js';
import { openApiCallMachine } from '../machines/open-api-call/open-api-call.machine.js';
import type { SecretValue } from '../machines/secret-value.js';
import { makeSpecLoadActors } from '../machines/spec-load/spec-load.actors.js';
import { specLoadMachine } from '../machines/spec-load/spec-load.machine.js';
import {
  apiKeyPlacement,
  assertOpenApiDocument,
  type CredentialPlacement,
  documentServerUrl,
} from '../openapi/index.js';
import {
  ConnectionUrlError,
  createHostFence,
  type HostFence,
  isInsideFence,
  normalizeAllowHosts,
  parseConnectionUrl,
} from '../wire/index.js';
import {
  checkConnectionBasics,
  checkStaticHeaders,
  requireConnectionName,
} from './connection-config.js';
import type { ResolvedMcpLimits } from './limits.js';
import type { OpenApiConnection, OpenApiConnectionConfig } from './types.js';

/** Where the document comes from. */
export type OpenApiSpecSource =
  | { readonly kind: 'inline'; readonly document: Record<string, unknown> }
  | { readonly kind: 'url'; readonly url: URL; readonly fence: HostFence };

/** The resolved form of an OpenAPI connection, computed once. */
export interface ResolvedOpenApiConnection {
  readonly name: string;
  readonly source: OpenApiSpecSource;
  readonly baseUrl: URL | undefined;
  readonly allowHosts: readonly string[];
  readonly limits: ResolvedMcpLimits;
  /** The most attempts of each operation (`retry.attempts`); 1 without a retry policy. */
  readonly attempts: number;
  readonly transports: readonly ToolTransport[];
  /** Whether the connection has a token provider; without one, calls skip `credentials`. */
  readonly resolvesToken: boolean;
  /** The static headers of every request, wrapped (`headers`). */
  readonly headers: Readonly<Record<string, SecretValue>>;
  /** Where the credential goes on every operation (`security`), when the host says. */
  readonly credentialOverride: CredentialPlacement | undefined;
  /** `openApiCall` with this connection's token provider, provided once. */
  readonly machine: typeof openApiCallMachine;
  /** `specLoad`, with this connection's sender when it has its own (proxy, TLS). */
  readonly specMachine: typeof specLoadMachine;
}

const resolved = new WeakMap<OpenApiConnection, ResolvedOpenApiConnection>();
const KIND = 'OpenAPI connection';

function checkAllowHosts(name: string, allowHosts: unknown): readonly string[] {
  if (allowHosts === undefined) return [];
  if (!Array.isArray(allowHosts) || allowHosts.some((entry) => typeof entry !== 'string')) {
    throw new TypeError(`${KIND} "${name}": allowHosts must be an array of host[:port] strings`);
  }
  return Object.freeze([...allowHosts]);
}

function readSpec(name: string, spec: unknown, allowHosts: readonly string[]): OpenApiSpecSource {
  if (typeof spec === 'string') {
    const text = spec.trim();
    if (text.startsWith('{')) {
      let document: unknown;
      try {
        document = JSON.parse(text);
      } catch (error) {
        throw new TypeError(`${KIND} "${name}": spec is not valid JSON text`, { cause: error });
      }
      assertOpenApiDocument(name, document);
      return { kind: 'inline', document };
    }
    if (!/^https?:\/\//i.test(text)) {
      throw new TypeError(
        `${KIND} "${name}": spec must be a document object, JSON text, or an http(s) URL (YAML is not supported; JSON is required)`,
      );
    }
    const url = parseConnectionUrl(text, name);
    return { kind: 'url', url, fence: createHostFence(name, url, allowHosts) };
  }
  assertOpenApiDocument(name, spec);
  return { kind: 'inline', document: spec };
}

/** `security`: absent, or one placement for every operation. */
function checkSecurityOverride(name: string, security: unknown): CredentialPlacement | undefined {
  if (security === undefined) return undefined;
  const { type, in: place, name: key } = (security ?? {}) as Record<string, unknown>;
  if (type === 'bearer') return { kind: 'authorization', scheme: 'Bearer' };
  if (type === 'basic') return { kind: 'authorization', scheme: 'Basic' };
  if (type === 'apiKey') {
    const placement = apiKeyPlacement(place, key);
    if (placement === 'invalid-name') {
      throw new TypeError(
        `${KIND} "${name}": security names an apiKey ${String(place)} "${String(key)}" that is not a valid name`,
      );
    }
    if (placement !== undefined) return placement;
  }
  throw new TypeError(
    `${KIND} "${name}": security must be { type: 'bearer' }, { type: 'basic' } or { type: 'apiKey', in: 'header' | 'query' | 'cookie', name }`,
  );
}

/**
 * Defines an OpenAPI service as a source of tools. Throws at once for a bad name, spec, base URL,
 * host, limit, transport list or hook; performs no network I/O.
 */
export function defineOpenApiConnection(config: OpenApiConnectionConfig): OpenApiConnection {
  const name = requireConnectionName(KIND, config?.name);
  const allowHosts = checkAllowHosts(name, config.allowHosts);
  const source = readSpec(name, config.spec, allowHosts);
  if (config.baseUrl !== undefined && typeof config.baseUrl !== 'string') {
    throw new TypeError(`${KIND} "${name}": baseUrl must be a string`);
  }
  const baseUrl =
    config.baseUrl === undefined ? undefined : parseConnectionUrl(config.baseUrl, name);
  // Refuses a malformed entry now, naming it, though the fence is only built at mount.
  normalizeAllowHosts(name, allowHosts);
  const { limits, transports, attempts, send } = checkConnectionBasics(KIND, config);
  const headers = checkStaticHeaders(KIND, name, 'headers', config.headers);
  const credentialOverride = checkSecurityOverride(name, config.security);
  const connection: OpenApiConnection = Object.freeze({ ...config, kind: 'openapi' as const });
  const token = config.token;
  const machine = openApiCallMachine.provide({
    actors: makeOpenApiCallActors({
      ...(token === undefined
        ? {}
        : {
            resolveToken: (principal: unknown) =>
              token(principal as RuntimeToolHandlerContext | undefined),
          }),
      ...(send === undefined ? {} : { send }),
    }),
  });
  // The document is loaded the same way as the calls (its proxy, its TLS).
  const specMachine =
    send === undefined
      ? specLoadMachine
      : specLoadMachine.provide({ actors: makeSpecLoadActors({ send }) });
  resolved.set(
    connection,
    Object.freeze({
      name,
      source,
      baseUrl,
      allowHosts,
      limits,
      attempts,
      headers,
      credentialOverride,
      transports,
      resolvesToken: token !== undefined,
      machine,
      specMachine,
    }),
  );
  return connection;
}

/** The resolved form of a connection made by {@link defineOpenApiConnection}. */
export function resolveOpenApiConnection(connection: OpenApiConnection): ResolvedOpenApiConnection {
  const found = resolved.get(connection);
  if (found === undefined) {
    throw new TypeError(
      'OpenAPI connections must be created with defineOpenApiConnection (the definition is checked there)',
    );
  }
  return found;
}

/**
 * The base URL and fence of the service: `baseUrl`, else the first of the document's `servers`
 * that parses (a relative one resolved against the spec URL), else the spec URL's origin. The fence is the spec host (or
 * `baseUrl`'s) plus `allowHosts`: a remote document cannot point calls at a foreign server.
 * Returns the refusal message instead when the document's server has variables and no `baseUrl`
 * was given (every operation is then refused with `server-variables`).
 */
export function resolveServiceBase(
  connection: ResolvedOpenApiConnection,
  servers: unknown,
): { readonly baseUrl: URL; readonly fence: HostFence } | { readonly refusal: string } {
  const { name, source } = connection;
  const specUrl = source.kind === 'url' ? source.url : undefined;
  const documentServer = documentServerUrl(servers, specUrl);
  let baseUrl = connection.baseUrl;
  if (baseUrl === undefined) {
    if (documentServer !== undefined && /[{}]/.test(documentServer)) {
      return { refusal: `its server "${documentServer}" has variables; give baseUrl` };
    }
    if (documentServer !== undefined) {
      if (specUrl === undefined && !/^https?:\/\//i.test(documentServer)) {
        throw new ConnectionUrlError({
          connectionName: name,
          operation: 'openapi/spec',
          refusal: `has a relative server URL "${documentServer}" in an inline document; give baseUrl`,
        });
      }
      if (!URL.canParse(documentServer, specUrl?.href)) {
        throw new ConnectionUrlError({
          connectionName: name,
          operation: 'openapi/spec',
          refusal: 'has no server URL that parses; give baseUrl',
        });
      }
      baseUrl = parseConnectionUrl(new URL(documentServer, specUrl).href, name);
    } else if (specUrl !== undefined) {
      baseUrl = new URL(specUrl.origin);
    } else {
      throw new ConnectionUrlError({
        connectionName: name,
        operation: 'openapi/spec',
        refusal: 'has an inline document without servers; give baseUrl',
      });
    }
  }
  const fenceOrigin = connection.baseUrl ?? specUrl ?? baseUrl;
  const fence = createHostFence(name, fenceOrigin, connection.allowHosts);
  if (!isInsideFence(baseUrl, fence)) {
    throw new ConnectionUrlError({
      connectionName: name,
      operation: 'openapi/spec',
      refusal: `refused the document's server host "${baseUrl.host.toLowerCase()}": not the spec host or an allowed host (add it to allowHosts or give baseUrl)`,
    });
  }
  return { baseUrl, fence };
}
