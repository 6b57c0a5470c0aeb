/**
 * `read_result`: the tool that reads on in a result the budget cut and spilled (decision 0044),
 * by the id the marker names and an offset in characters, one page within that result's budget.
 */
import { z } from 'zod';
import type { CallToolResult } from '../kernel/mcp-types.js';
import { agentContentOutput, markResultBudget } from './budgeted-tool.js';
import { pageTrailer, type ResultSpillStore } from './result-spill.js';
import { type AnyRuntimeToolDefinition, defineRuntimeTool } from './runtime-tool.js';

/** The name the marker of a spilled result tells the model to call. */
export const READ_RESULT_TOOL_NAME = 'read_result';

const readResultInput = z.object({
  id: z.string().min(1).max(64).describe('The id the cut result names (read_result {"id":…}).'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Where the page starts, in characters of the whole result; default 0.'),
  length: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('The most characters the page may hold; a page also stays within the budget.'),
});

const tools = new WeakMap<ResultSpillStore, AnyRuntimeToolDefinition>();

/**
 * The `read_result` definition of `store` (one per store, so mounts that share a boundary share
 * it). Its answer is the page's text and a trailer that says where the page sits and how to read
 * on; an id that is not kept is `RESULT_NOT_KEPT` (404). Its pages are sized to their result's
 * budget, so no budget cuts them again.
 */
export function readResultToolOf(store: ResultSpillStore): AnyRuntimeToolDefinition {
  const known = tools.get(store);
  if (known !== undefined) return known;
  const definition = defineRuntimeTool({
    name: READ_RESULT_TOOL_NAME,
    description:
      'Reads a tool result that was cut to fit the context, page by page: give the id its marker names, and the offset the previous page says to read on from.',
    identity: { serviceName: 'stitchkit-transport', action: READ_RESULT_TOOL_NAME, method: 'GET' },
    input: readResultInput,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: async ({ input }): Promise<CallToolResult> => {
      const page = await store.page(input.id, input.offset ?? 0, input.length);
      return {
        content: [
          { type: 'text', text: page.text },
          { type: 'text', text: pageTrailer(input.id, page) },
        ],
      };
    },
    present: {
      mcp: (output: CallToolResult) => ({ content: output.content }),
      agent: (output: CallToolResult) => agentContentOutput(output),
    },
  });
  const marked = markResultBudget(definition as unknown as AnyRuntimeToolDefinition, {
    maxTokens: Number.MAX_SAFE_INTEGER,
  });
  tools.set(store, marked);
  return marked;
}
