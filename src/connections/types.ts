/**
 * Public configuration types of `stitchkit-transport/connections`.
 */
import type { ResultSpillStore } from '../binding/contract/result-spill.js';
import type { ResultBudget, RuntimeToolHandlerContext, ToolTransport } from '../binding/index.js';
import type {
  McpProtocolChoice,
  McpTransportKind,
} from '../machines/mcp-operation/mcp-operation.types.js';
import type { InspectionObserver, TransitionObserver } from '../machines/observe.js';
import type { OpenApiRefusalReason } from '../openapi/index.js';
import type { ConnectionTls, Dispatcher, ToolListCache } from '../wire/index.js';
import type { OperationLimits, TaskLimits } from './limits.js';
import type { ConnectionTelemetry } from './telemetry.js';

/**
 * Resolves the credential for one operation: called with no context for discovery and with the
 * tool call's handler context for each call. Return `undefined` to send no `Authorization` header.
 * Called once per operation; the library never caches the result.
 */
export type ConnectionTokenProvider = (
  context?: RuntimeToolHandlerContext,
) => string | undefined | Promise<string | undefined>;

/** Which discovered MCP tools to mount. */
export interface McpToolFilter {
  /** Mount only these names (absent: all). */
  readonly allow?: readonly string[];
  /** Never mount these names; applied after `allow`. */
  readonly block?: readonly string[];
  /**
   * Mounts each tool as `<prefix>__<name>` (`[A-Za-z0-9_-]`, at most 64 characters, a stable hash
   * suffix when longer), so two servers' `echo` never collide; `allow` and `block` name the
   * server's own names, and calls send them.
   */
  readonly prefix?: string;
}

/**
 * A connection's retry policy (off by default). Another attempt is made only for a failure that
 * one may mend (connection refused, reset or closed early; 408, 429, 502, 503, 504) and only when
 * repeating is safe: the server never received the request (refused), the failure came before an
 * MCP call was sent (its handshake), or the operation is repeatable (a tool marked `readOnlyHint`
 * or `idempotentHint`, a listing, an OpenAPI GET, HEAD, PUT or DELETE, a spec load). The wait is
 * the server's `Retry-After`, else 200 ms doubling up to 5 s with jitter, and no attempt or wait
 * runs past the operation's deadline. Each attempt and wait is a transition of the `retry` machine.
 */
export interface RetryPolicy {
  /** At most this many attempts in all, the first included: an integer from 1 (no retry) to 10. */
  readonly attempts: number;
}

/** The options every kind of connection takes besides its target. */
export interface ConnectionCommonConfig {
  /** A non-empty name; it identifies the connection to the host (OpenAPI: it prefixes tool names). */
  readonly name: string;
  /** Resolves the credential per operation (no context for discovery, the call's context per call). */
  readonly token?: ConnectionTokenProvider;
  /** Extra `host[:port]` values inside the fence. */
  readonly allowHosts?: readonly string[];
  /** Deadline of each operation in ms; default 30 000; a positive integer up to 2 147 483 647. */
  readonly timeoutMs?: number;
  /** Raw byte ceiling of each operation's responses (SSE framing included); default 1 MiB. */
  readonly maxResponseBytes?: number;
  /** Per-phase overrides; an omitted field inherits the shared value. */
  readonly limits?: { readonly discovery?: OperationLimits; readonly call?: OperationLimits };
  /** Transports the tools are exposed on; default MCP + AGENT. */
  readonly transports?: readonly ToolTransport[];
  /** Tries a failed operation again when that is safe (see {@link RetryPolicy}); default never. */
  readonly retry?: RetryPolicy;
  /**
   * Sends every request through a proxy: `'env'` honours `HTTPS_PROXY`, `HTTP_PROXY` and
   * `NO_PROXY` (read once, at the connection's first request); a URL (`http://user:pass@proxy:3128`) uses that proxy.
   * Requests are tunnelled (`CONNECT`), so the target's headers and token never reach the proxy;
   * the fence, the redirect refusal and the byte bounds judge the target. Default: no proxy.
   */
  readonly proxy?: 'env' | string;
  /**
   * TLS for this connection's requests: a private CA (`ca`), a client certificate (`cert`, `key`)
   * for mutual TLS, the name to verify (`servername`). Verification is always on.
   */
  readonly tls?: ConnectionTls;
  /** An undici `Dispatcher` to send every request on, used as given (not with `proxy` or `tls`). */
  readonly dispatcher?: Dispatcher;
  /** Receives one record per state transition of this connection's machines. */
  readonly observe?: TransitionObserver;
  /** Handed to every machine actor of this connection (XState inspection API). */
  readonly inspect?: InspectionObserver;
  /**
   * OpenTelemetry spans, the MCP operation histogram and trace context on the wire, through the
   * optional peer `@opentelemetry/api`: the host's global providers by default (nothing is
   * emitted until it registers one), others here, or `false` for none (decision 0032).
   */
  readonly telemetry?: ConnectionTelemetry | false;
  /**
   * What the model may see of each result of this connection's tools: `maxTokens` estimated
   * tokens, an integer from 500 to 25,000; it wins over the mount's `resultBudget.maxTokens`
   * (default 10,000), and a tool's own `_meta["anthropic/maxResultSizeChars"]` raises it.
   */
  readonly results?: { readonly maxTokens?: number };
}

/** Configuration of an external MCP server used as a source of tools. */
export interface McpClientConnectionConfig extends ConnectionCommonConfig {
  /**
   * The server's Streamable HTTP (or legacy SSE) URL, static headers sent on every request, and
   * the wire to speak. Without `type`, every client probes Streamable HTTP and falls back to legacy
   * SSE on 400/404/405 of its first `initialize`; with `type` it speaks that wire only (`sse`
   * saves the probe a legacy-only server refuses; `streamable-http` never falls back).
   *
   * `protocolVersion` picks the MCP revision: `auto` (the default) starts with the MCP 2026-07-28
   * request (the stateless `tools/list` itself), switches to the 2025-11-25 handshake when the server
   * answers as a 2025 server does (400, 404 or 405 without a 2026-07-28 JSON-RPC error, `-32022`
   * naming a 2025 revision, or a result without `resultType`), and from there to legacy SSE only
   * on 400/404/405 of that `initialize` (with no `type`); `'2026-07-28'` speaks the stateless wire
   * only (one POST per request, no handshake, no session; not with `type: 'sse'`); `'2025-11-25'`
   * starts with the handshake and never switches. Discovery's revision travels with every mounted
   * tool, so a call to a 2026-07-28 server is one POST (decision 0023).
   */
  readonly transport: {
    readonly url: string;
    readonly headers?: Readonly<Record<string, string>>;
    readonly type?: McpTransportKind;
    readonly protocolVersion?: McpProtocolChoice;
  };
  /** Which discovered tools to mount. */
  readonly tools?: McpToolFilter;
  /** Per-phase overrides (an omitted field inherits the shared value), and the task deadline. */
  readonly limits?: {
    readonly discovery?: OperationLimits;
    readonly call?: OperationLimits;
    /** A call that became an MCP task: its deadline from creation to end (default 10 minutes). */
    readonly task?: TaskLimits;
  };
  /**
   * MCP tasks (decision 0042). A call the server runs as a task is driven to its end inside the
   * call. On a 2025-11-25 server a tool whose `execution.taskSupport` is `required` is always
   * called as a task; `optional` says how a tool marked `optional` is called: `'plain'` (default)
   * or `'task'`. On 2026-07-28 the server alone decides.
   */
  readonly tasks?: { readonly optional?: 'plain' | 'task' };
}

/** A checked MCP connection definition, ready for {@link mountConnections}. */
export type McpClientConnection = McpClientConnectionConfig & { readonly kind: 'mcp' };

/** Configuration of an OpenAPI service used as a source of tools (one tool per operation). */
export interface OpenApiConnectionConfig extends ConnectionCommonConfig {
  /**
   * The OpenAPI 3.0/3.1 document: an object, JSON text, or an http(s) URL to a JSON document
   * (loaded at mount with no credential, fenced to its host plus `allowHosts`, redirects refused;
   * `limits.discovery` governs that load, `limits.call` each request).
   */
  readonly spec: object | string;
  /**
   * The service's base URL; wins over the document's servers. Needed for an inline document
   * with relative or no servers, and for a document server with variables.
   */
  readonly baseUrl?: string;
  /**
   * Headers sent with every request (a record of strings, CR/LF refused at definition), placed
   * after the operation's header parameters; the credential, when placed, still comes last.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Where the credential (`token`) goes on every operation, replacing what the document declares
   * (for a document that declares no security, or the wrong one).
   */
  readonly security?: OpenApiSecurityOverride;
}

/** A credential placement for every operation of an OpenAPI connection. */
export type OpenApiSecurityOverride =
  | { readonly type: 'bearer' }
  | { readonly type: 'basic' }
  | { readonly type: 'apiKey'; readonly in: 'header' | 'query' | 'cookie'; readonly name: string };

/** A checked OpenAPI connection definition, ready for {@link mountConnections}. */
export type OpenApiConnection = OpenApiConnectionConfig & { readonly kind: 'openapi' };

/** Every kind of connection `mountConnections` accepts. */
export type ConnectionDefinition = McpClientConnection | OpenApiConnection;

/**
 * Why a discovered tool was not mounted (a closed vocabulary). Two reasons report a tool that
 * *is* mounted (see {@link isMountedDespite}): `unconvertible-output-schema`, an MCP
 * `outputSchema` this library cannot convert (the tool mounts without output checking and without
 * advertising that schema); `unvalidated-input-schema`, an `inputSchema` zod cannot express (the
 * tool mounts with the schema shown as written, and the server validates its arguments).
 */
export type SkipReason =
  | 'invalid-tool'
  | 'invalid-name'
  // `x-mcp-header` annotations MCP 2026-07-28 says a client must not mount.
  | 'invalid-header-annotation'
  // A tool that runs only as an MCP task (`execution.taskSupport: "required"`).
  | 'requires-task'
  | 'unconvertible-schema'
  | 'unconvertible-output-schema'
  | 'unvalidated-input-schema'
  // An OpenAPI operation outside the subset: the vocabulary lives with the subset check.
  | OpenApiRefusalReason;

/**
 * True for a report about a tool that was still mounted (`unconvertible-output-schema`: what was
 * skipped is its output check; `unvalidated-input-schema`: its local argument check). Such reports
 * reach `onSkippedTool` but are not counted as skipped by `describeCatalog`.
 */
export function isMountedDespite(reason: SkipReason): boolean {
  return reason === 'unconvertible-output-schema' || reason === 'unvalidated-input-schema';
}

/** A tool that was discovered but not mounted, or (see {@link isMountedDespite}) mounted unchecked. */
export interface SkippedTool {
  /** The connection's name. */
  readonly connection: string;
  /** The tool's name as the server gave it (may be empty when the server gave none). */
  readonly tool: string;
  /** Why, from a closed vocabulary. */
  readonly reason: SkipReason;
  /** A host-facing explanation. */
  readonly message: string;
}

/**
 * The mount's `resultBudget`, checked: its token budget (absent: the default) and its spill
 * store. Internal: what `mountConnections` hands each discovery.
 */
export interface MountResultBudget {
  readonly maxTokens?: number;
  readonly spill?: ResultSpillStore;
}

/** The MCP revision and transport a listing was spoken on. */
export interface SpokenWire {
  readonly protocolVersion: string;
  readonly transport: 'streamable-http' | 'sse';
}

/**
 * What a live catalog (`watchConnections`, issue 47) hears from one discovery and the tools it
 * builds. Internal: `mountConnections` passes none.
 */
export interface DiscoveryWatch {
  /** Aborts the listing when the catalog closes. */
  readonly signal?: AbortSignal;
  /**
   * What the previous listing of the connection was spoken on: a relisting speaks it again (a
   * revision an answer may still contradict) instead of probing, as the tools' calls do.
   */
  readonly spoken?: SpokenWire;
  /**
   * The listing's caching hint (MCP 2026-07-28 `ttlMs` and `cacheScope`; none on 2025 servers)
   * and the MCP revision and transport it was spoken on (none for an OpenAPI document).
   */
  listed(cache: ToolListCache | undefined, spoken: SpokenWire | undefined): void;
  /** A tool of the discovery is being called. */
  toolUsed(): void;
  /** A call found the listing stale: tool `name` is unknown upstream, or its headers changed. */
  listingStale(name: string): void;
}

/** Options of {@link mountConnections}. */
export interface ConnectionMountOptions {
  /** Ceilings on what the mounted surface may expose, checked after discovery. */
  readonly budget?: { readonly maxTools?: number; readonly maxSchemaBytes?: number };
  /**
   * Receives each skipped tool, and each tool mounted without output checking
   * (`unconvertible-output-schema`); default: one `console.warn` line per report.
   */
  readonly onSkippedTool?: (skipped: SkippedTool) => void;
  /** Receives the transition records of every connection in this mount. */
  readonly observe?: TransitionObserver;
  /**
   * What the model may see of each result, baked into every mounted definition's presenters (so
   * any runner that mounts them applies it; `runTool`'s data stays whole): `maxTokens` (default
   * 10,000; a connection's `results.maxTokens` wins), and with `spill` the whole payload of a cut
   * result kept in the boundary and a `read_result` tool among the definitions (decision 0044).
   */
  readonly resultBudget?: ResultBudget;
}
