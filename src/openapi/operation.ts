/**
 * The subset check of one OpenAPI operation (ADR 0180) and what it compiles to: its parameters,
 * JSON body, credential placement and input JSON Schema. A refused operation throws an
 * {@link OperationRefusal} with its reason; nothing here does I/O.
 */

import { isRecord } from '../binding/kernel/type-guards.js';
import { isHttpToken } from '../wire/core/header-text.js';
import { mediaTypeEssence } from '../wire/read/media-type.js';
import { MAX_EXPANDED_NODES, type RefExpander } from './expand.js';
import { OperationRefusal, refuse } from './refusal.js';
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

/** What checking one parameter gave: the parameter, nothing (an ignored header), or a refusal. */
type ParameterOutcome = CheckedParameter | undefined | OperationRefusal;

/**
 * Each document's parameters that are a bare reference (`{ $ref: '#/components/parameters/owner' }`),
 * checked once by their reference: the check depends on the parameter alone, and a large document
 * shares a few parameters among hundreds of operations (GitHub's `owner` and `repo`), so a mount
 * costs one check per parameter, not one per use.
 */
const checkedByReference = new WeakMap<OperationDocument, Map<string, ParameterOutcome>>();

/** A reference with nothing beside it, whose target alone decides the parameter. */
function bareReference(raw: unknown): string | undefined {
  if (!isRecord(raw) || typeof raw.$ref !== 'string') return undefined;
  for (const key in raw) if (key !== '$ref') return undefined;
  return raw.$ref;
}

/** {@link checkParameter}, once per bare reference of the document. */
function checkSharedParameter(
  raw: unknown,
  document: OperationDocument,
): CheckedParameter | undefined {
  const reference = bareReference(raw);
  if (reference === undefined) return checkParameter(raw, document);
  let memo = checkedByReference.get(document);
  if (memo === undefined) {
    memo = new Map();
    checkedByReference.set(document, memo);
  }
  if (!memo.has(reference)) {
    try {
      memo.set(reference, checkParameter(raw, document));
    } catch (error) {
      if (!(error instanceof OperationRefusal)) throw error;
      memo.set(reference, error);
    }
  }
  const outcome = memo.get(reference);
  if (outcome instanceof OperationRefusal) throw outcome;
  return outcome;
}

/** Path-item parameters, overridden by the operation's own (same location and name). */
function collectParameters(
  pathItem: Record<string, unknown>,
  operation: Record<string, unknown>,
  document: OperationDocument,
): CheckedParameter[] {
  // A list, not a map keyed by location and name: an operation has a handful of parameters, and
  // a mount compiles thousands of operations.
  const parameters: CheckedParameter[] = [];
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) refuse('invalid-operation', 'has parameters that are not a list');
    for (const raw of list) {
      const parameter = checkSharedParameter(raw, document);
      if (parameter === undefined) continue;
      const same = parameters.findIndex(
        (other) => other.in === parameter.in && other.name === parameter.name,
      );
      if (same === -1) parameters.push(parameter);
      else parameters[same] = parameter;
    }
  }
  for (let index = 1; index < parameters.length; index++) {
    const name = parameters[index]?.name;
    if (parameters.findIndex((other) => other.name === name) < index) {
      refuse('invalid-operation', `uses the parameter name "${name}" in two locations`);
    }
  }
  return parameters;
}

function checkPathTemplate(path: string, parameters: readonly CheckedParameter[]): void {
  const used: string[] = [];
  for (const match of path.matchAll(TEMPLATE_VARIABLE)) used.push(match[1] ?? '');
  for (const variable of used) {
    if (!parameters.some((p) => p.in === 'path' && p.name === variable)) {
      refuse('invalid-operation', `has a path variable "${variable}" with no path parameter`);
    }
  }
  for (const parameter of parameters) {
    if (parameter.in === 'path' && !used.includes(parameter.name)) {
      refuse(
        'invalid-operation',
        `declares a path parameter "${parameter.name}" its path does not use`,
      );
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
