/** `stitchkit-transport/operations`: the generic native operations of ADR 0081. */

export { WaitTimeoutError } from '../machines/wait/wait.timeout-error.js';
export { DownloadError, type DownloadErrorCode } from '../wire/download/download-error.js';
export type { HostResolver, ResolvedAddress } from '../wire/download/download-fetch.js';
export { type DownloadToolConfig, defineDownloadTool } from './define-download-tool.js';
export {
  defineUploadTool,
  type UploadToolConfig,
  UploadToolInputSchema,
} from './define-upload-tool.js';
export {
  defineWaitTool,
  type WaitRendering,
  type WaitToolConfig,
} from './define-wait-tool.js';
export {
  type DownloadLimits,
  type DownloadOperationOptions,
  type DownloadProgress,
  downloadProgressMessage,
  resolveDownloadLimits,
  runDownloadOperation,
} from './download-operation.js';
export {
  createFileBoundary,
  type ExistingFilePolicy,
  type FileBody,
  type FileBoundary,
  type FileBoundaryOptions,
  type FileReadOptions,
  type FileReference,
  type FileSource,
  type FileWriteOptions,
} from './file-boundary.js';
export {
  FileBoundaryError,
  type FileBoundaryErrorCode,
} from './file-boundary-error.js';
export { FileReferenceSchema } from './file-reference.js';
export { type MountDownloadOptions, mountDownload } from './mount-download.js';
export { type MountUploadOptions, mountUpload } from './mount-upload.js';
export { type MountWaitOptions, mountWait } from './mount-wait.js';
export type { ManagedNativeToolConfig } from './native-definition.js';
export { runUploadOperation, type UploadOperationOptions } from './upload-operation.js';
export {
  assertWaitTimeoutSeconds,
  DEFAULT_WAIT_TIMEOUT_SECONDS,
  runWaitOperation,
  type WaitOperationOptions,
  type WaitOperationResult,
  type WaitTick,
  waitProgressMessage,
} from './wait-operation.js';
