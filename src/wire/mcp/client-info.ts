/**
 * Who the client is, as every MCP request names it (`clientInfo` of a 2025-11-25 `initialize`,
 * the `_meta` envelope of a 2026-07-28 request): the package's own name and version, read once,
 * when the module loads, from its `package.json`, so that a release never sends a stale version.
 * The file is found by the package's own name (a self-reference through its `exports`, which
 * lists `./package.json`), so it is the same file from `src/` under a test runner, from `dist/`,
 * and from an installed copy loaded by `import` or by `require`.
 */
import { createRequire } from 'node:module';

/** The `name` and `version` an MCP client sends as its `Implementation`. */
export interface ClientInfo {
  /** The package's name, `stitchkit-transport`. */
  readonly name: string;
  /** The package's version, as its `package.json` says. */
  readonly version: string;
}

const manifest = createRequire(import.meta.url)('stitchkit-transport/package.json') as ClientInfo;

/** This client's `Implementation`: the package's name and version from its `package.json`. */
export const CLIENT_INFO: ClientInfo = Object.freeze({
  name: manifest.name,
  version: manifest.version,
});
