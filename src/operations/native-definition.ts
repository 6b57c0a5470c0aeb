/**
 * What every managed native tool (wait, download, upload) is configured with besides its own
 * callbacks, and how those fields become the definition's: the factory owns the method.
 */
import type {
  RuntimeToolIdentity,
  ToolAnnotations,
  ToolHttpMethod,
  ToolTransport,
} from '../binding/index.js';

/** The fields shared by `defineWaitTool`, `defineDownloadTool` and `defineUploadTool`. */
export interface ManagedNativeToolConfig {
  /** Tool name; each factory has its default (`wait`, `download`, `upload`). */
  readonly name?: string;
  /** What the tool does, for the model or MCP client. */
  readonly description: string;
  /** Who the tool belongs to; the method is the factory's (wait `GET`, download and upload `POST`). */
  readonly identity: {
    readonly serviceName: string;
    readonly action: string;
    readonly scope?: string;
  };
  /** Surfaces; default MCP + AGENT. */
  readonly transports?: readonly ToolTransport[];
  /** MCP annotations. */
  readonly annotations?: ToolAnnotations;
}

/** The definition fields of a managed native tool: name, description, identity with `method`. */
export function managedNativeFields(
  config: ManagedNativeToolConfig,
  defaults: { readonly name: string; readonly method: ToolHttpMethod },
): {
  name: string;
  description: string;
  identity: RuntimeToolIdentity;
  transports?: readonly ToolTransport[];
  annotations?: ToolAnnotations;
} {
  return {
    name: config.name ?? defaults.name,
    description: config.description,
    identity: { ...config.identity, method: defaults.method },
    ...(config.transports === undefined ? {} : { transports: config.transports }),
    ...(config.annotations === undefined ? {} : { annotations: config.annotations }),
  };
}
