/**
 * The OpenAPI layer: document checks, bounded `$ref` expansion, the per-operation subset check
 * with its refusal reasons, tool naming, security placement, request building and the lazily
 * compiled input validator. Pure: the I/O is the machines'.
 */
export { annotationsForMethod } from './annotations.js';
export { assertOpenApiDocument, listOperations } from './document.js';
export { RefExpander } from './expand.js';
export { lazyInputValidator, PENDING_INPUT } from './input-validator.js';
export { createToolNamer, operationKeywords, rawOperationName } from './naming.js';
export {
  type CompiledOperation,
  compileOperation,
  documentServerUrl,
  type OperationDocument,
} from './operation.js';
export { type OpenApiRefusalReason, OperationRefusal } from './refusal.js';
export { buildOpenApiRequest, operationBaseUrl, pathUnder } from './request.js';
export { apiKeyPlacement } from './security.js';
export type { CredentialPlacement } from './types.js';
