/**
 * The subset check of one OpenAPI operation (ADR 0180) and what it compiles to: its parameters,
 * JSON body, credential placement and input JSON Schema. A refused operation throws an
 * {@link OperationRefusal} with its reason; nothing here does I/O.
 */

import { isRecord } from '../binding/kernel/type-guards.js';
import { isHttpToken } from '../wire/core/header-text.js';
import { mediaTypeEssence } from '../wire/read/media-type.js';
import { MAX_EXPANDED_NODES, type RefExpander } from './expand.js';
import { refuse } from './refusal.js';
import { selectCredentialPlacement } from './security.js';
import type { CredentialPlacement, OpenApiMethod } from './types.js';

/** Where a parameter goes. */
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

/** One scalar parameter of a compiled operation. */
export interface CompiledParameter {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
}

/** An operation inside the subset, ready to become a tool. */
export interface CompiledOperation {
  readonly method: OpenApiMethod;
  /** The path template, as written (`/pets/{petId}`). */
  readonly path: string;
  readonly parameters: readonly CompiledParameter[];
  /** The JSON request body, when the operation has one. */
  readonly body: { readonly required: boolean } | undefined;
  readonly credential: CredentialPlacement;
  /** The operation's (or path item's) own server URL, as written; resolved and fenced at mount. */
  readonly server: string | undefined;
  /** The flat input object the model fills: one property per parameter, plus `body`. */
  readonly inputSchema: Record<string, unknown>;
}

/** The document-level facts every operation's check needs. */
export interface OperationDocument {
  readonly expander: RefExpander;
  /** The document's `security`, the default of every operation. */
  readonly security: unknown;
  /** `components.securitySchemes`. */
  readonly securitySchemes: unknown;
  /** Where the credential goes on every operation, whatever the document declares. */
  readonly credentialOverride?: CredentialPlacement;
}

const LOCATIONS: ReadonlySet<string> = new Set(['path', 'query', 'header', 'cookie']);
const DEFAULT_STYLE: Readonly<Record<ParameterLocation, string>> = {
  path: 'simple',
  query: 'form',
  header: 'simple',
  cookie: 'form',
};
/** Header parameters the OpenAPI specification says to ignore. */
const IGNORED_HEADERS: ReadonlySet<string> = new Set(['authorization', 'content-type', 'accept']);
const SCALAR_TYPES: ReadonlySet<string> = new Set([
  'string',
  'number',
  'integer',
  'boolean',
  'null',
]);
const TEMPLATE_VARIABLE = /\{([^{}]+)\}/g;

/** True for a schema whose values are scalars, whatever combinators it uses. */
function isScalarSchema(schema: unknown): boolean {
  if (typeof schema === 'boolean') return true;
  if (!isRecord(schema)) return false;
  const { type } = schema;
  if (typeof type === 'string' && !SCALAR_TYPES.has(type)) return false;
  if (Array.isArray(type) && !type.every((t) => typeof t === 'string' && SCALAR_TYPES.has(t))) {
    return false;
  }
  if (type === undefined && ('properties' in schema || 'items' in schema)) return false;
  for (const combinator of ['oneOf', 'anyOf', 'allOf'] as const) {
    const members = schema[combinator];
    if (Array.isArray(members) && !members.every(isScalarSchema)) return false;
  }
  return true;
}

function isServerTemplate(url: string): boolean {
  return url.includes('{') || url.includes('}');
}

/** Any base a relative server URL can resolve against, to ask whether a server URL parses. */
const PARSE_BASE = 'http://base.invalid/';

/** The first server URL of a `servers` list, if any. */
export function firstServerUrl(servers: unknown): string | undefined {
  if (!Array.isArray(servers)) return undefined;
  const [first] = servers;
  return isRecord(first) && typeof first.url === 'string' && first.url.trim() !== ''
    ? first.url
    : undefined;
}

/**
 * The document's server: the first of its `servers` whose URL parses (relative ones resolve
 * against `base`, the spec's URL, when there is one), else the first one as written, which the
 * mount then refuses, typed.
 */
export function documentServerUrl(servers: unknown, base?: URL): string | undefined {
  if (!Array.isArray(servers)) return undefined;
  for (const server of servers) {
    const url = isRecord(server) ? server.url : undefined;
    if (
      typeof url === 'string' &&
      url.trim() !== '' &&
      URL.canParse(url, base?.href ?? PARSE_BASE)
    ) {
      return url;
    }
  }
  return firstServerUrl(servers);
}

interface CheckedParameter extends CompiledParameter {
  readonly property: Record<string, unknown>;
  readonly nodes: number;
}

function checkParameter(raw: unknown, document: OperationDocument): CheckedParameter | undefined {
  const parameter = document.expander.resolveObject(raw);
  const name = parameter?.name;
  const location = parameter?.in;
  if (
    parameter === undefined ||
    typeof name !== 'string' ||
    name === '' ||
    typeof location !== 'string' ||
    !LOCATIONS.has(location)
  ) {
    return refuse('invalid-operation', 'has a parameter without a valid name and location');
  }
  const where = location as ParameterLocation;
  if (where === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) return undefined;
  if ((where === 'header' || where === 'cookie') && !isHttpToken(name)) {
    refuse('invalid-operation', `has a ${where} parameter "${name}" that is not a valid name`);
  }
  if (name === 'body') {
    refuse('invalid-operation', 'has a parameter named "body", which the JSON body uses');
  }
  if (parameter.content !== undefined) {
    refuse('structured-parameter', `serializes parameter "${name}" with a media type`);
  }
  if (parameter.style !== undefined && parameter.style !== DEFAULT_STYLE[where]) {
    refuse(
      'structured-parameter',
      `serializes parameter "${name}" with style "${String(parameter.style)}"`,
    );
  }
  if (parameter.allowReserved === true) {
    refuse('structured-parameter', `sends parameter "${name}" with reserved characters unescaped`);
  }
  const expanded = document.expander.expandSchema(parameter.schema ?? { type: 'string' });
  if (!isScalarSchema(expanded.schema)) {
    refuse('structured-parameter', `has a parameter "${name}" that is not a scalar`);
  }
  const schema = isRecord(expanded.schema) ? expanded.schema : {};
  const description = typeof parameter.description === 'string' ? parameter.description : undefined;
  return {
    name,
    in: where,
    required: where === 'path' || parameter.required === true,
    property: description === undefined ? schema : { ...schema, description },
    nodes: expanded.nodes,
  };
}

/** Path-item parameters, overridden by the operation's own (same location and name). */
function collectParameters(
  pathItem: Record<string, unknown>,
  operation: Record<string, unknown>,
  document: OperationDocument,
): CheckedParameter[] {
  const byKey = new Map<string, CheckedParameter>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) refuse('invalid-operation', 'has parameters that are not a list');
    for (const raw of list) {
      const parameter = checkParameter(raw, document);
      if (parameter !== undefined) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
    }
  }
  const parameters = [...byKey.values()];
  const names = new Set<string>();
  for (const parameter of parameters) {
    if (names.has(parameter.name)) {
      refuse('invalid-operation', `uses the parameter name "${parameter.name}" in two locations`);
    }
    names.add(parameter.name);
  }
  return parameters;
}

function checkPathTemplate(path: string, parameters: readonly CheckedParameter[]): void {
  const declared = new Set(parameters.filter((p) => p.in === 'path').map((p) => p.name));
  const used = new Set([...path.matchAll(TEMPLATE_VARIABLE)].map((match) => match[1] ?? ''));
  for (const variable of used) {
    if (!declared.has(variable)) {
      refuse('invalid-operation', `has a path variable "${variable}" with no path parameter`);
    }
  }
  for (const name of declared) {
    if (!used.has(name)) {
      refuse('invalid-operation', `declares a path parameter "${name}" its path does not use`);
    }
  }
}

function checkBody(
  method: OpenApiMethod,
  operation: Record<string, unknown>,
  document: OperationDocument,
): { required: boolean; schema: unknown; nodes: number } | undefined {
  if (operation.requestBody === undefined) return undefined;
  const body = document.expander.resolveObject(operation.requestBody);
  if (method === 'GET' || method === 'HEAD') {
    refuse('invalid-operation', `has a request body on ${method}`);
  }
  const content = body?.content;
  if (!isRecord(content) || Object.keys(content).length === 0) {
    return refuse('invalid-operation', 'has a request body without content');
  }
  const json = Object.keys(content).find((type) => mediaTypeEssence(type) === 'application/json');
  if (json === undefined) {
    return refuse('non-json-body', 'has a request body that is not application/json');
  }
  const media = document.expander.resolveObject(content[json]) ?? {};
  const expanded = document.expander.expandSchema(media.schema ?? {});
  return { required: body?.required === true, schema: expanded.schema, nodes: expanded.nodes };
}

function ownServer(
  pathItem: Record<string, unknown>,
  operation: Record<string, unknown>,
): string | undefined {
  const server = firstServerUrl(operation.servers) ?? firstServerUrl(pathItem.servers);
  if (server !== undefined && isServerTemplate(server)) {
    refuse('server-variables', `has its own server "${server}" with variables`);
  }
  // Relative or absolute, it must parse against any base; the base and the fence are checked at
  // mount, where the connection's base is known.
  if (server !== undefined && !URL.canParse(server, PARSE_BASE)) {
    refuse('invalid-server', 'has its own server URL, which does not parse');
  }
  return server;
}

/** Checks one operation against the subset and compiles it; throws its refusal otherwise. */
export function compileOperation(
  method: OpenApiMethod,
  path: string,
  pathItem: Record<string, unknown>,
  operation: Record<string, unknown>,
  document: OperationDocument,
): CompiledOperation {
  const server = ownServer(pathItem, operation);
  const checked = collectParameters(pathItem, operation, document);
  checkPathTemplate(path, checked);
  const body = checkBody(method, operation, document);
  const credential =
    document.credentialOverride ??
    selectCredentialPlacement(
      operation.security ?? document.security,
      document.securitySchemes,
      document.expander,
    );
  const nodes = checked.reduce((sum, p) => sum + p.nodes, body?.nodes ?? 0);
  if (nodes > MAX_EXPANDED_NODES) {
    refuse(
      'invalid-operation',
      `has inputs that expand to more than ${MAX_EXPANDED_NODES} JSON nodes`,
    );
  }
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const parameter of checked) {
    properties[parameter.name] = parameter.property;
    if (parameter.required) required.push(parameter.name);
  }
  if (body !== undefined) {
    properties.body = body.schema;
    if (body.required) required.push('body');
  }
  return {
    method,
    path,
    parameters: checked.map(({ name, in: location, required: isRequired }) => ({
      name,
      in: location,
      required: isRequired,
    })),
    body: body === undefined ? undefined : { required: body.required },
    credential,
    server,
    inputSchema: {
      type: 'object',
      properties,
      ...(required.length === 0 ? {} : { required }),
      additionalProperties: false,
    },
  };
}
