/**
 * OpenAPI discovery and the tools it yields: the document (inline, or loaded by `specLoad`), then
 * one `RuntimeToolDefinition` per operation inside the subset, each call one `openApiCall` run
 * with the caller's credential. A refused operation is reported, not fatal.
 */

import { withResultBudget } from '../binding/contract/budgeted-tool.js';
import { resultBudgetTokens } from '../binding/contract/result-budget.js';
import { withLazyInput } from '../binding/contract/runtime-tool.js';
import { markSearchKeywords } from '../binding/contract/search-keywords.js';
import {
  type AnyRuntimeToolDefinition,
  defineRuntimeTool,
  type RuntimeToolHandlerContext,
  type ToolAnnotations,
} from '../binding/index.js';
import type { TransitionObserver } from '../machines/observe.js';
import {
  annotationsForMethod,
  assertOpenApiDocument,
  buildOpenApiRequest,
  type CompiledOperation,
  compileOperation,
  createToolNamer,
  lazyInputValidator,
  listOperations,
  type OperationDocument,
  OperationRefusal,
  operationBaseUrl,
  operationKeywords,
  PENDING_INPUT,
  pathUnder,
  RefExpander,
  rawOperationName,
} from '../openapi/index.js';
import type { OpenApiMethod } from '../openapi/types.js';
import { type HostFence, isInsideFence } from '../wire/index.js';
import {
  type ResolvedOpenApiConnection,
  resolveOpenApiConnection,
  resolveServiceBase,
} from './define-openapi-connection.js';
import { attemptBudgetMs, isRepeatableTool, runConnectionOperation } from './run-operation.js';
import { recordMountedToolCost } from './tool-cost.js';
import type { DiscoveryWatch, MountResultBudget, OpenApiConnection, SkippedTool } from './types.js';

/** The document of a connection: inline as defined, or loaded from its URL under `specLoad`. */
async function loadDocument(
  connection: OpenApiConnection,
  resolved: ResolvedOpenApiConnection,
  observe: TransitionObserver | undefined,
): Promise<Record<string, unknown>> {
  const { source } = resolved;
  if (source.kind === 'inline') return source.document;
  const input = {
    connectionName: resolved.name,
    url: source.url.href,
    fence: source.fence,
    limits: resolved.limits.discovery,
  };
  // A document is read, never changed: a load may always be repeated.
  const { document } = await runConnectionOperation(
    connection,
    {
      connection: resolved,
      operation: 'openapi/spec',
      repeatable: true,
      budgetMs: attemptBudgetMs(resolved.limits.discovery),
      observe,
    },
    resolved.specMachine,
    input,
  );
  assertOpenApiDocument(resolved.name, document);
  return document;
}

function describeOperation(
  method: string,
  path: string,
  operation: Record<string, unknown>,
): string {
  const summary = typeof operation.summary === 'string' ? operation.summary.trim() : '';
  const description = typeof operation.description === 'string' ? operation.description.trim() : '';
  const text = [summary, description].filter((part) => part !== '').join('\n\n');
  return text === '' ? `${method} ${path}` : text;
}

interface ToolPlan {
  readonly name: string;
  readonly annotations: ToolAnnotations;
  readonly rawName: string;
  readonly description: string;
  /** The operation, its own server already resolved into `base`. */
  readonly compiled: CompiledOperation;
  /** Where its requests go: its own server resolved against the connection's base, or that base. */
  readonly base: URL;
  /** The document's `operationId`, for the call's span. */
  readonly operationId: string | undefined;
  /** The path template under the base's own path, for the call's span (`url.template`). */
  readonly template: string;
}

function buildTool(
  connection: OpenApiConnection,
  resolved: ResolvedOpenApiConnection,
  service: { readonly baseUrl: URL; readonly fence: HostFence },
  plan: ToolPlan,
  observe: TransitionObserver | undefined,
  watch: DiscoveryWatch | undefined,
): AnyRuntimeToolDefinition {
  const { compiled, base } = plan;
  const repeatable = isRepeatableTool(plan.annotations);
  return defineRuntimeTool({
    name: plan.name,
    description: plan.description,
    identity: { serviceName: resolved.name, action: plan.rawName, method: compiled.method },
    input: PENDING_INPUT,
    inputJsonSchema: compiled.inputSchema,
    transports: resolved.transports,
    annotations: plan.annotations,
    handler: async (context: RuntimeToolHandlerContext) => {
      watch?.toolUsed();
      const request = buildOpenApiRequest(compiled, context.input as Record<string, unknown>, base);
      const input = {
        connectionName: resolved.name,
        request,
        fence: service.fence,
        principal: context,
        resolvesToken: resolved.resolvesToken,
        limits: resolved.limits.call,
        headers: resolved.headers,
      };
      const outcome = await runConnectionOperation(
        connection,
        {
          connection: resolved,
          operation: 'openapi/call',
          repeatable,
          budgetMs: attemptBudgetMs(resolved.limits.call),
          signal: context.signal,
          observe,
          span: {
            kind: 'openapi',
            method: compiled.method,
            template: plan.template,
            operationId: plan.operationId,
            tool: plan.name,
            arguments: context.input,
            server: base,
          },
        },
        resolved.machine,
        input,
      );
      return outcome.value;
    },
  });
}

/**
 * Where an operation's requests go: its own server resolved against the connection's base (once,
 * here at mount, so no call parses it), or that base; else why it cannot be used.
 */
function operationBase(
  compiled: CompiledOperation,
  service: { readonly baseUrl: URL; readonly fence: HostFence },
):
  | { readonly base: URL }
  | { readonly reason: 'invalid-server' | 'server-outside-fence'; readonly message: string } {
  const url = operationBaseUrl(compiled, service.baseUrl);
  if (compiled.server === undefined) return { base: url };
  // The fence's own rule decides; only the refusal's wording is worked out here.
  if (isInsideFence(url, service.fence)) return { base: url };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { reason: 'invalid-server', message: 'has its own server URL, which is not http(s)' };
  }
  if (url.username !== '' || url.password !== '') {
    return { reason: 'invalid-server', message: 'has its own server URL, which carries userinfo' };
  }
  return {
    reason: 'server-outside-fence',
    message: `has its own server host "${url.host.toLowerCase()}" outside the connection's hosts (add it to allowHosts)`,
  };
}

/**
 * Loads one OpenAPI connection's document and builds a tool per operation inside the subset;
 * each refused operation is reported with its reason. A document with no operation mounts none.
 * Each tool's result budget is baked into its presenters.
 */
export async function discoverOpenApiTools(
  connection: OpenApiConnection,
  report: (skipped: SkippedTool) => void,
  observe?: TransitionObserver,
  budget: MountResultBudget = {},
  watch?: DiscoveryWatch,
): Promise<AnyRuntimeToolDefinition[]> {
  const resolved = resolveOpenApiConnection(connection);
  const document = await loadDocument(connection, resolved, observe);
  // A document carries no caching hint: a live catalog keeps it by its own `defaultTtlMs`.
  watch?.listed(undefined, undefined);
  const service = resolveServiceBase(resolved, document.servers);
  const components = (document.components ?? {}) as Record<string, unknown>;
  const context: OperationDocument = {
    expander: new RefExpander(document),
    security: document.security,
    securitySchemes: components.securitySchemes,
    ...(resolved.credentialOverride === undefined
      ? {}
      : { credentialOverride: resolved.credentialOverride }),
  };
  const nameTool = createToolNamer(resolved.name);
  const tools: AnyRuntimeToolDefinition[] = [];
  let sendsToken = false;
  for (const { method, path, pathItem, operation } of listOperations(document)) {
    const rawName = rawOperationName(operation.operationId, method, path);
    const skip = (reason: SkippedTool['reason'], message: string): void =>
      report({
        connection: resolved.name,
        tool: rawName,
        reason,
        message: `${method} ${path} ${message}`,
      });
    if (method === 'OPTIONS' || method === 'TRACE') {
      skip('unsupported-method', `uses ${method}, which is not in the supported subset`);
      continue;
    }
    if ('refusal' in service) {
      skip('server-variables', service.refusal);
      continue;
    }
    let compiled: CompiledOperation;
    try {
      compiled = compileOperation(method as OpenApiMethod, path, pathItem, operation, context);
    } catch (error) {
      if (!(error instanceof OperationRefusal)) throw error;
      skip(error.reason, error.message);
      continue;
    }
    const target = operationBase(compiled, service);
    if ('reason' in target) {
      skip(target.reason, target.message);
      continue;
    }
    const plan = {
      name: nameTool(rawName),
      rawName,
      description: describeOperation(method, path, operation),
      annotations: annotationsForMethod(compiled.method, operation.summary),
      compiled,
      base: target.base,
      operationId: typeof operation.operationId === 'string' ? operation.operationId : undefined,
      // The template as its requests' paths read: under the base's own path.
      template: pathUnder(target.base, path),
    };
    const definition = withLazyInput(
      withResultBudget(buildTool(connection, resolved, service, plan, observe, watch), {
        maxTokens: resultBudgetTokens(undefined, connection.results?.maxTokens ?? budget.maxTokens),
        ...(budget.spill === undefined ? {} : { spill: budget.spill }),
      }),
      () => lazyInputValidator(compiled.inputSchema),
    );
    recordMountedToolCost(definition, resolved.name, compiled.inputSchema);
    const tags: unknown = operation.tags;
    tools.push(markSearchKeywords(definition, () => operationKeywords(path, tags)));
    if (compiled.credential.kind !== 'none') sendsToken = true;
  }
  // A token no mounted operation places is never sent: say so once, and how to send it.
  if (resolved.resolvesToken && tools.length > 0 && !sendsToken) {
    console.warn(
      `[stitchkit-transport] connection "${resolved.name}": a token is configured, but no mounted operation declares security, so it is never sent; set security: { type: 'bearer' } (or 'basic', or an apiKey) to send it`,
    );
  }
  return tools;
}
