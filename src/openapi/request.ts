/**
 * Builds the request of one call from a compiled operation and the tool's arguments. Path values
 * are percent-encoded so they cannot change the path (`/`, `?`, `#` encoded; `.` and `..`
 * refused), the query goes through `URLSearchParams`, header and cookie values with CR, LF or NUL
 * are refused before any I/O. The credential is placed later, by the machine. Pure: no I/O.
 */

import { AppError } from '../binding/kernel/app-error.js';
import { hasHeaderBreak } from '../wire/core/header-text.js';
import type { CompiledOperation } from './operation.js';
import type { OpenApiRequest } from './types.js';

function invalidInput(message: string): AppError {
  return new AppError('VALIDATION_ERROR', {
    message,
    status: 400,
    retryable: false,
    details: { message },
  });
}

/** A parameter's wire text: scalars only. */
function scalarText(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw invalidInput(`Parameter "${name}" must be a string, number or boolean`);
}

function pathSegmentText(name: string, value: unknown): string {
  const text = scalarText(name, value);
  if (text === '' || text === '.' || text === '..') {
    throw invalidInput(`Path parameter "${name}" must not be empty, "." or ".."`);
  }
  return encodeURIComponent(text);
}

/** The path of `base` + `path`, with exactly one `/` between them (a template stays a template). */
export function pathUnder(base: URL, path: string): string {
  return `${base.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** `base` + `path` with exactly one `/` between them; the base's query is kept. */
function joinUrl(base: URL, path: string): URL {
  const url = new URL(base.href);
  url.pathname = pathUnder(base, path);
  url.hash = '';
  return url;
}

/**
 * Where an operation's requests go: its own server resolved against the connection's base
 * `baseUrl`, or that base. Resolved once, at mount; a call builds on what this returned.
 */
export function operationBaseUrl(operation: Pick<CompiledOperation, 'server'>, baseUrl: URL): URL {
  return operation.server === undefined ? baseUrl : new URL(operation.server, baseUrl);
}

/**
 * The request for `args` (already validated against the tool's input schema), under `base`: the
 * operation's own base, from {@link operationBaseUrl}.
 */
export function buildOpenApiRequest(
  operation: CompiledOperation,
  args: Readonly<Record<string, unknown>>,
  base: URL,
): OpenApiRequest {
  let path = operation.path;
  const headers: Record<string, string> = { accept: 'application/json' };
  const cookies: string[] = [];
  const query: [string, string][] = [];
  for (const parameter of operation.parameters) {
    const value = args[parameter.name];
    if (value === undefined || value === null) continue;
    if (parameter.in === 'path') {
      path = path.replaceAll(`{${parameter.name}}`, pathSegmentText(parameter.name, value));
      continue;
    }
    const text = scalarText(parameter.name, value);
    if (parameter.in === 'query') {
      query.push([parameter.name, text]);
    } else if (hasHeaderBreak(text)) {
      throw invalidInput(
        `The ${parameter.in} parameter "${parameter.name}" must not contain CR, LF or NUL`,
      );
    } else if (parameter.in === 'header') {
      headers[parameter.name.toLowerCase()] = text;
    } else {
      cookies.push(`${parameter.name}=${encodeURIComponent(text)}`);
    }
  }
  const url = joinUrl(base, path);
  for (const [name, text] of query) url.searchParams.append(name, text);
  const hasBody = operation.body !== undefined && args.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  return {
    method: operation.method,
    url: url.href,
    headers,
    cookies,
    credential: operation.credential,
    ...(hasBody ? { body: JSON.stringify(args.body) } : {}),
  };
}
