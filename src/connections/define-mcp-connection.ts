/**
 * `defineMcpClientConnection`: checks an MCP connection's configuration once, at definition time,
 * and keeps the resolved form (URL, fence, wrapped headers, limits) for every later operation.
 * No I/O happens here.
 */
import type { RuntimeToolHandlerContext, ToolTransport } from '../binding/index.js';
import { makeListenActors } from '../machines/listen/listen.actors.js';
import { listenMachine } from '../machines/listen/listen.machine.js';
import {
  type McpOperationDependencies,
  makeMcpOperationActors,
} from '../machines/mcp-operation/mcp-operation.actors.js';
import { mcpOperationMachine } from '../machines/mcp-operation/mcp-operation.machine.js';
import type {
  McpProtocolChoice,
  McpTransportChoice,
} from '../machines/mcp-operation/mcp-operation.types.js';
import type { SecretValue } from '../machines/secret-value.js';
import { createHostFence, type HostFence, parseConnectionUrl } from '../wire/index.js';
import {
  checkConnectionBasics,
  checkStaticHeaders,
  requireConnectionName,
} from './connection-config.js';
import type { ResolvedMcpLimits } from './limits.js';
import type { McpClientConnection, McpClientConnectionConfig } from './types.js';

/** The resolved form of an MCP connection, computed once. */
export interface ResolvedMcpConnection {
  readonly name: string;
  readonly url: URL;
  readonly fence: HostFence;
  readonly headers: Readonly<Record<string, SecretValue>>;
  /** The wire every client speaks: `auto` probes Streamable HTTP first. */
  readonly transportType: McpTransportChoice;
  /** The MCP revision discovery starts with: `auto` unless the configuration pins one. */
  readonly protocolChoice: McpProtocolChoice;
  /** Whether the connection has a token provider; without one, runs skip `credentials`. */
  readonly resolvesToken: boolean;
  readonly limits: ResolvedMcpLimits;
  /** The most attempts of each operation (`retry.attempts`); 1 without a retry policy. */
  readonly attempts: number;
  readonly transports: readonly ToolTransport[];
  readonly allow: ReadonlySet<string> | undefined;
  readonly block: ReadonlySet<string>;
  /** Prefixes the mounted names (`tools.prefix`), when set. */
  readonly prefix: string | undefined;
  /** How a 2025 tool whose `taskSupport` is `optional` is called (`tasks.optional`). */
  readonly optionalTasks: 'plain' | 'task';
  /** `mcpOperation` with this connection's token provider, provided once (decision 0007). */
  readonly machine: typeof mcpOperationMachine;
  /** `listen` with the same token provider and sender, for a live catalog's stream. */
  readonly listen: typeof listenMachine;
}

const resolved = new WeakMap<McpClientConnection, ResolvedMcpConnection>();
const KIND = 'MCP connection';

function checkTransportType(name: string, type: unknown): McpTransportChoice {
  if (type === undefined) return 'auto';
  if (type === 'streamable-http' || type === 'sse') return type;
  throw new TypeError(
    `MCP connection "${name}": transport.type must be 'streamable-http' or 'sse' (or absent to probe)`,
  );
}

const PROTOCOL_CHOICES: readonly McpProtocolChoice[] = ['auto', '2026-07-28', '2025-11-25'];

function checkProtocolVersion(
  name: string,
  version: unknown,
  transportType: McpTransportChoice,
): McpProtocolChoice {
  if (version === undefined) return 'auto';
  if (!PROTOCOL_CHOICES.includes(version as McpProtocolChoice)) {
    throw new TypeError(
      `MCP connection "${name}": transport.protocolVersion must be 'auto', '2026-07-28' or '2025-11-25'`,
    );
  }
  if (version === '2026-07-28' && transportType === 'sse') {
    throw new TypeError(
      `MCP connection "${name}": MCP 2026-07-28 has no legacy SSE transport; drop transport.type 'sse' or pin '2025-11-25'`,
    );
  }
  return version as McpProtocolChoice;
}

function checkNameList(
  name: string,
  option: string,
  list: unknown,
): ReadonlySet<string> | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || list.some((entry) => typeof entry !== 'string')) {
    throw new TypeError(`MCP connection "${name}": ${option} must be an array of tool names`);
  }
  return new Set(list as string[]);
}

/**
 * Defines an external MCP server as a source of tools. Throws at once for a bad name, URL,
 * header, host, limit or transport list; performs no network I/O.
 */
export function defineMcpClientConnection(config: McpClientConnectionConfig): McpClientConnection {
  const name = requireConnectionName(KIND, config?.name);
  if (typeof config.transport?.url !== 'string') {
    throw new TypeError(`MCP connection "${name}": transport.url must be a string`);
  }
  const url = parseConnectionUrl(config.transport.url, name);
  const headers = checkStaticHeaders(KIND, name, 'transport.headers', config.transport.headers);
  const transportType = checkTransportType(name, config.transport.type);
  const protocolChoice = checkProtocolVersion(
    name,
    config.transport.protocolVersion,
    transportType,
  );
  const fence = createHostFence(name, url, config.allowHosts);
  const { limits, transports, attempts, send } = checkConnectionBasics(KIND, config);
  const allow = checkNameList(name, 'tools.allow', config.tools?.allow);
  const block = checkNameList(name, 'tools.block', config.tools?.block) ?? new Set<string>();
  const prefix = checkPrefix(name, config.tools?.prefix);
  const optionalTasks = checkOptionalTasks(name, config.tasks);
  const connection: McpClientConnection = Object.freeze({ ...config, kind: 'mcp' as const });
  const machine = mcpOperationMachine.provide({
    actors: makeMcpOperationActors({
      ...operationDependencies(config.token),
      ...(send === undefined ? {} : { send }),
    }),
  });
  const listen = listenMachine.provide({
    actors: makeListenActors({
      ...operationDependencies(config.token),
      ...(send === undefined ? {} : { send }),
    }),
  });
  resolved.set(
    connection,
    Object.freeze({
      name,
      url,
      fence,
      headers,
      transportType,
      protocolChoice,
      resolvesToken: config.token !== undefined,
      limits,
      attempts,
      transports,
      allow,
      block,
      prefix,
      optionalTasks,
      machine,
      listen,
    }),
  );
  return connection;
}

/** `tasks.optional`: absent (`'plain'`), `'plain'` or `'task'`. */
function checkOptionalTasks(name: string, tasks: unknown): 'plain' | 'task' {
  const optional: unknown = (tasks as { readonly optional?: unknown } | undefined)?.optional;
  if (tasks !== undefined && (typeof tasks !== 'object' || tasks === null)) {
    throw new TypeError(`MCP connection "${name}": tasks must be an object`);
  }
  if (optional === undefined || optional === 'plain' || optional === 'task') {
    return optional ?? 'plain';
  }
  throw new TypeError(
    `MCP connection "${name}": tasks.optional must be 'plain' or 'task' (how a tool whose taskSupport is optional is called)`,
  );
}

/** `tools.prefix`: absent, or a non-empty string with at least one name character. */
function checkPrefix(name: string, prefix: unknown): string | undefined {
  if (prefix === undefined) return undefined;
  if (typeof prefix !== 'string' || !/[A-Za-z0-9]/.test(prefix)) {
    throw new TypeError(
      `MCP connection "${name}": tools.prefix must be a string with a letter or digit (it becomes "<prefix>__<tool>")`,
    );
  }
  return prefix;
}

/** The machine's dependencies: the token provider, called with the run's principal. */
function operationDependencies(
  token: McpClientConnectionConfig['token'],
): McpOperationDependencies {
  if (token === undefined) return {};
  // The principal is the handler context a call passed in (absent for discovery).
  return { resolveToken: (principal) => token(principal as RuntimeToolHandlerContext | undefined) };
}

/** The resolved form of a connection made by {@link defineMcpClientConnection}. */
export function resolveMcpConnection(connection: McpClientConnection): ResolvedMcpConnection {
  const found = resolved.get(connection);
  if (found === undefined) {
    throw new TypeError(
      'MCP connections must be created with defineMcpClientConnection (the definition is checked there)',
    );
  }
  return found;
}
