/**
 * The connection errors. They are defined in the wire layer, which raises most of them
 * (decision 0003); this module is their public home under `stitchkit-transport/connections`.
 */
export {
  type AuthChallenge,
  ConnectionAuthorizationRequiredError,
  ConnectionBudgetExceededError,
  type ConnectionErrorScope,
  type ConnectionOperation,
  ConnectionOperationError,
  type ConnectionPhase,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  ConnectionTimeoutError,
  ConnectionUrlError,
} from '../wire/index.js';
