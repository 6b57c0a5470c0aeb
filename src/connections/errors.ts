/**
 * The connection errors (DESIGN §2.2). They are defined in the wire layer, which raises most of
 * them; this module is their public home under `stitchkit-transport/connections`.
 */
export {
  ConnectionAuthorizationRequiredError,
  ConnectionBudgetExceededError,
  type ConnectionFailureContext,
  type ConnectionOperation,
  type ConnectionPhase,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  ConnectionTimeoutError,
  ConnectionUrlError,
} from '../wire/index.js';
