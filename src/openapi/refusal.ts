/**
 * Why an OpenAPI operation is not mounted: the closed vocabulary of refusal reasons, and the
 * refusal the checks throw for one operation (the rest of the document still mounts). Pure.
 */

/** Why an operation was refused (ADR 0180's subset). */
export type OpenApiRefusalReason =
  | 'external-ref'
  | 'recursive-ref'
  | 'server-variables'
  | 'invalid-server'
  | 'server-outside-fence'
  | 'structured-parameter'
  | 'non-json-body'
  | 'combined-security'
  | 'unknown-security'
  | 'unsupported-method'
  | 'invalid-operation';

/** One operation refused with a reason and a host-facing message. */
export class OperationRefusal extends Error {
  override readonly name = 'OperationRefusal';

  constructor(
    /** From the closed vocabulary. */
    readonly reason: OpenApiRefusalReason,
    message: string,
  ) {
    super(message);
  }
}

/** Throws the refusal; typed `never` so checks read as guards. */
export function refuse(reason: OpenApiRefusalReason, message: string): never {
  throw new OperationRefusal(reason, message);
}
