/**
 * The mount-time refusal of a gateway whose `requestState` would not be sealed end to end: the
 * MCP server's seam verifies no state, or verifies it with a codec other than the one the mount
 * mints with (decision 0038). Pure: no I/O.
 */
import { BrandedError } from '../kernel/branded-error.js';
import { brandSymbol } from '../kernel/type-guards.js';

/** Why {@link mountMcp} refused to mount; each has its own message saying what to pass. */
export type GatewayStateProblem =
  /** The v2 `McpServer` was created without the `requestState` option. */
  | 'unverified'
  /** Its `requestState.verify` is not a codec from `createGatewayRequestState`. */
  | 'foreign-verifier'
  /** `mountMcp`'s `requestState` option is another codec than the server's. */
  | 'two-codecs'
  /** `mountMcp`'s `requestState` option does not come from `createGatewayRequestState`. */
  | 'foreign-codec';

/** What to write, the same in every message. */
const WIRING =
  'const requestState = createGatewayRequestState(); ' +
  'const server = new McpServer(info, { requestState }); ' +
  'mountMcp(server, tools, { requestState })';

const MESSAGES: Readonly<Record<GatewayStateProblem, string>> = {
  unverified:
    'mountMcp: this McpServer (MCP SDK v2) verifies no requestState, so a state this gateway ' +
    'never minted would reach its tools. Create the server with the gateway codec and hand ' +
    `the same codec to mountMcp: ${WIRING}`,
  'foreign-verifier':
    "mountMcp: this McpServer's requestState.verify is not a codec made by " +
    'createGatewayRequestState, so it would refuse the states this gateway mints or let ' +
    `through states it never minted. Create the server with the gateway codec: ${WIRING}`,
  'two-codecs':
    'mountMcp: the requestState given to mountMcp is not the codec the McpServer verifies ' +
    `with; pass the same one to both (or omit it from mountMcp): ${WIRING}`,
  'foreign-codec': `mountMcp: requestState must come from createGatewayRequestState: ${WIRING}`,
};

/**
 * `mountMcp` refused a server whose `requestState` seam is not the gateway's own codec: a state
 * the gateway did not mint could otherwise reach a tool, or a state it minted be refused.
 */
export class GatewayStateError extends BrandedError {
  /** The registered brand of this class. */
  static override readonly brand: symbol = brandSymbol('error.GATEWAY_REQUEST_STATE');
  override readonly name = 'GatewayStateError';
  /** Stable machine-readable code. */
  readonly code = 'GATEWAY_REQUEST_STATE';
  /** What is wrong with the wiring. */
  readonly problem: GatewayStateProblem;

  constructor(problem: GatewayStateProblem) {
    super(MESSAGES[problem]);
    this.problem = problem;
  }
}
