/**
 * Type test against `ai` 7 (installed into `.cache/ai7` by `conformance/run.sh`, which needs no
 * Node 22 to type-check): what `ai` 7 passes to a tool's `execute` is what a mounted agent tool
 * takes, as a typed value and as an object literal. Compiled by
 * `tsc -p test/types/tsconfig.ai7.json`; never run.
 */
import type { ToolExecutionOptions } from 'ai';
import type { AgentTool } from '../../src/binding/index.js';

export async function callWithAi7Options(
  tool: AgentTool,
  options: ToolExecutionOptions<{ tenant: string }>,
): Promise<unknown> {
  await tool.execute({ a: 1 }, options);
  return tool.execute(
    { a: 1 },
    { toolCallId: 'call-1', messages: [], context: { tenant: 't1' }, abortSignal: undefined },
  );
}
