/**
 * The OpenAPI layer: document checks, bounded `$ref` expansion, the per-operation subset check
 * with its refusal reasons, tool naming, security placement, request building and the lazily
 * compiled input validator. Pure: the I/O is the machines'.
 */
export { annotationsForMethod } from './annotations.js';
export { assertOpenApiDocument, type DocumentOperation, listOperations } from './document.js';
export {
  type ExpandedSchema,
  MAX_EXPANDED_DEPTH,
  MAX_EXPANDED_NODES,
  RefExpander,
} from './expand.js';
export { lazyInputValidator } from './input-validator.js';
export {
  createToolNamer,
  MAX_TOOL_NAME_LENGTH,
  rawOperationName,
  sanitizeNamePart,
} from './naming.js';
export {
  type CompiledOperation,
  type CompiledParameter,
  compileOperation,
  documentServerUrl,
  type OperationDocument,
  type ParameterLocation,
} from './operation.js';
export { type OpenApiRefusalReason, OperationRefusal, refuse } from './refusal.js';
export { buildOpenApiRequest, operationBaseUrl, pathUnder } from './request.js';
export { apiKeyPlacement, selectCredentialPlacement } from './security.js';
export type { CredentialPlacement, OpenApiRequest } from './types.js';
