/**
 * `stitchkit-transport`: external MCP servers as typed tools, generic native operations as managed
 * tools, and the XState machines behind them. The root re-exports the connection API, the
 * operations and the tool contract; the machines live under `stitchkit-transport/machines`.
 */
export * from './binding/index.js';
export * from './connections/index.js';
export * from './operations/index.js';
