/**
 * A scripted model for the suites that drive tools through `mountAgent` and the real `ai`
 * `generateText`: it calls one tool on step 1 and answers with text on step 2.
 */
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { AgentToolSet } from '../../src/binding/index.js';

/** The token usage every scripted step reports (one token in, one token out). */
export const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/**
 * A mock model that calls `toolName` with `input` (as tool call `call-1`) on step 1 and answers
 * with the text `done` on step 2.
 */
export function modelCalling(toolName: string, input: unknown): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: [
          { type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'done' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      },
    ],
  });
}

/**
 * Runs `generateText` with `model` and `tools` for at most two steps (the tool call, then the
 * answer), sending `prompt` (`go` unless told).
 */
export function run(model: MockLanguageModelV3, tools: AgentToolSet, prompt = 'go') {
  return generateText({ model, tools, prompt, stopWhen: stepCountIs(2) });
}

/** The tool message the model received on its second step. */
export function toolMessageOf(model: MockLanguageModelV3) {
  return model.doGenerateCalls[1]?.prompt.find((message) => message.role === 'tool');
}
