/**
 * An OpenAPI document as a source of operations: the version check, and the operations in
 * document order (methods outside the subset included, so they can be reported). Pure.
 */
import { isRecord } from '../binding/kernel/type-guards.js';
import type { OpenApiMethod } from './types.js';

const METHODS: readonly string[] = ['get', 'head', 'post', 'put', 'patch', 'delete'];
/** Methods a path item may declare that this library does not call. */
const UNSUPPORTED_METHODS: readonly string[] = ['options', 'trace'];

/** One operation of the document, in document order. */
export interface DocumentOperation {
  /** Upper-case method; `OPTIONS` and `TRACE` appear so they can be reported. */
  readonly method: OpenApiMethod | 'OPTIONS' | 'TRACE';
  readonly path: string;
  readonly pathItem: Record<string, unknown>;
  readonly operation: Record<string, unknown>;
}

/**
 * Throws a `TypeError` naming the connection unless `document` is an OpenAPI 3.0 or 3.1 object
 * with a `paths` object (an absent `paths` is allowed by 3.1 and means no operations).
 */
export function assertOpenApiDocument(
  connectionName: string,
  document: unknown,
): asserts document is Record<string, unknown> {
  const prefix = `OpenAPI connection "${connectionName}"`;
  if (!isRecord(document)) throw new TypeError(`${prefix}: spec must be a JSON object`);
  const version = document.openapi;
  if (typeof version !== 'string' || !/^3\.[01]\.\d+/.test(version)) {
    const found =
      typeof document.swagger === 'string'
        ? `Swagger ${document.swagger}`
        : typeof version === 'string'
          ? `OpenAPI ${version}`
          : 'no openapi version';
    throw new TypeError(`${prefix}: spec must be an OpenAPI 3.0 or 3.1 document (found ${found})`);
  }
  if (document.paths !== undefined && !isRecord(document.paths)) {
    throw new TypeError(`${prefix}: spec paths must be an object`);
  }
}

/** Every operation of the document, path by path, in the document's order. */
export function listOperations(document: Record<string, unknown>): DocumentOperation[] {
  const operations: DocumentOperation[] = [];
  const paths = isRecord(document.paths) ? document.paths : {};
  for (const [path, pathItem] of Object.entries(paths)) {
    if (!isRecord(pathItem)) continue;
    for (const [key, operation] of Object.entries(pathItem)) {
      if (!isRecord(operation)) continue;
      if (METHODS.includes(key) || UNSUPPORTED_METHODS.includes(key)) {
        operations.push({
          method: key.toUpperCase() as DocumentOperation['method'],
          path,
          pathItem,
          operation,
        });
      }
    }
  }
  return operations;
}
