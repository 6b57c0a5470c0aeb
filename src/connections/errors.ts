/**
 * The connection errors under `stitchkit-transport/connections`. Those raised by an operation are
 * defined in the wire layer, which raises most of them (decision 0003); the mount budget's error is
 * defined here, where the mount raises it.
 */
import { AppError, TOOL_ERROR_PROJECTION } from '../binding/kernel/app-error.js';
import { brandSymbol } from '../binding/kernel/type-guards.js';
import { ConnectionError } from '../wire/index.js';

export {
  type AuthChallenge,
  ConnectionAuthorizationRequiredError,
  ConnectionCredentialError,
  type ConnectionErrorScope,
  ConnectionInputRequiredError,
  ConnectionNetworkError,
  type ConnectionOperation,
  ConnectionOperationError,
  type ConnectionPhase,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  ConnectionTaskCreatedError,
  ConnectionTaskError,
  ConnectionTimeoutError,
  ConnectionUrlError,
  type CredentialProblem,
  type NetworkFailure,
  type TaskEnd,
} from '../wire/index.js';

const BUDGET_EXCEEDED = 'CONNECTION_BUDGET_EXCEEDED';

/** The projection of a mount the configuration must change: `BAD_REQUEST` / 400, not retryable. */
function mountRefusal(
  message: string,
  details: Readonly<Record<string, unknown>> & { readonly reason: string },
): AppError {
  return new AppError('BAD_REQUEST', {
    message,
    status: 400,
    retryable: false,
    details: { message, ...details },
  });
}

/**
 * The mounted connections expose more tools or schema bytes than the mount budget allows. It
 * belongs to the whole mount, so its fields have no connection scope.
 */
export class ConnectionBudgetExceededError extends ConnectionError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandSymbol(`error.${BUDGET_EXCEEDED}`);
  override readonly name = 'ConnectionBudgetExceededError';
  /** Stable code of this class. */
  readonly code = BUDGET_EXCEEDED;
  /** The configured budget. */
  readonly limit: number;
  /** What the connections actually expose. */
  readonly actual: number;
  /** What is counted. */
  readonly unit: 'tools' | 'schema bytes';

  constructor(fields: {
    readonly limit: number;
    readonly actual: number;
    readonly unit: 'tools' | 'schema bytes';
  }) {
    super(
      `Connection surface exposes ${fields.actual} ${fields.unit}, above the budget of ${fields.limit}`,
    );
    this.limit = fields.limit;
    this.actual = fields.actual;
    this.unit = fields.unit;
  }

  /** `BAD_REQUEST` / 400: the mount configuration must change. */
  [TOOL_ERROR_PROJECTION](): AppError {
    return mountRefusal(
      `Connection surface exposes ${this.actual} ${this.unit}, above the budget of ${this.limit}.`,
      { reason: 'mount-budget-exceeded', limit: this.limit, actual: this.actual, unit: this.unit },
    );
  }
}

const NAME_COLLISION = 'CONNECTION_TOOL_NAME_COLLISION';

/**
 * Two mounted tools share a name (two servers with an `echo`): the mount refuses before any
 * surface sees them, naming both connections and the option that tells them apart.
 */
export class ConnectionToolNameCollisionError extends ConnectionError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandSymbol(`error.${NAME_COLLISION}`);
  override readonly name = 'ConnectionToolNameCollisionError';
  /** Stable code of this class. */
  readonly code = NAME_COLLISION;
  /** The name both tools would be mounted under. */
  readonly tool: string;
  /** The connection that mounted it first, then the one that mounted it again. */
  readonly connections: readonly [string, string];

  constructor(fields: { readonly tool: string; readonly connections: readonly [string, string] }) {
    const [first, second] = fields.connections;
    const which =
      first === second
        ? `connection "${first}" lists it twice`
        : `connections "${first}" and "${second}" both mount it`;
    super(
      `Tool name "${fields.tool}" would be mounted twice: ${which}. Give an MCP connection tools: { prefix: '…' } (its tools become "<prefix>__<name>"), or tools: { block: ['${fields.tool}'] } on one of them`,
    );
    this.tool = fields.tool;
    this.connections = fields.connections;
  }

  /** `BAD_REQUEST` / 400: the mount configuration must change. */
  [TOOL_ERROR_PROJECTION](): AppError {
    return mountRefusal('Two mounted tools share a name.', { reason: 'tool-name-collision' });
  }
}
