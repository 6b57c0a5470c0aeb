/** `stitchkit-transport/operations`: the generic native operations of ADR 0081. */
export {
  defineWaitTool,
  type WaitRendering,
  type WaitToolConfig,
} from './define-wait-tool.js';
export { type MountWaitOptions, mountWait } from './mount-wait.js';
export {
  assertWaitTimeoutSeconds,
  DEFAULT_WAIT_TIMEOUT_SECONDS,
  runWaitOperation,
  type WaitOperationOptions,
  type WaitOperationResult,
  type WaitTick,
  waitProgressMessage,
} from './wait-operation.js';
