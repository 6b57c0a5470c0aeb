/**
 * The demo's result budget step: a 2 MB answer reaches the model cut, with its marker, and is
 * read on through `read_result` (issue 46, decision 0044).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimateTokens, mountAgent } from '../binding/index.js';
import { defineMcpClientConnection, mountConnections } from '../connections/index.js';
import { createFileBoundary } from '../operations/index.js';
import type { DemoWorld, StepOutcome } from './demo-steps.js';

/**
 * The `users` tool's 2 MB answer through `mountConnections` with a result budget that spills, and
 * `mountAgent`: the host's output is whole, the model's is cut with its marker, and `read_result`
 * reads the whole answer back, page by page, as the model would.
 */
export async function resultBudgetStep(world: DemoWorld): Promise<StepOutcome> {
  const root = await mkdtemp(join(tmpdir(), 'demo-results-'));
  try {
    const runtime = await mountConnections(
      [
        defineMcpClientConnection({
          name: 'directory',
          transport: { url: `${world.servers.origin}/stateless` },
          tools: { allow: ['users'] },
          maxResponseBytes: 8 * 1_048_576,
        }),
      ],
      { resultBudget: { spill: { boundary: createFileBoundary({ root }) } } },
    );
    const tools = mountAgent({ runtimeTools: runtime });
    const call = (name: string, input: unknown) =>
      tools[name]?.execute(input, { toolCallId: `demo-${name}`, messages: [] }) as Promise<{
        content: { text: string }[];
      }>;
    const whole = await call('users', {});
    const answer = whole.content[0]?.text ?? '';
    const seen = tools.users?.toModelOutput?.({ output: whole });
    const parts = seen?.type === 'content' ? seen.value : [];
    const [head, marker] = parts.map((part) => (part.type === 'text' ? part.text : ''));
    const id = /"id":"(r[0-9a-f]+)"/.exec(marker ?? '')?.[1];
    // The marker's id is random, and so its estimate: the figure shown is the marker's with one id.
    const steady = id === undefined ? marker : marker?.replaceAll(id, 'r0000000000000000');
    const trailers: string[] = [];
    let read = '';
    while (read.length < answer.length && trailers.length < 200) {
      const page = await call('read_result', { id, offset: read.length });
      read += page.content[0]?.text ?? '';
      trailers.push(page.content[1]?.text ?? '');
    }
    return {
      wire: '2026-07-28',
      outcome: `${count(answer.length)} characters cut to 10,000 tokens; ${trailers.length} pages read back`,
      lines: [
        `the model sees ${head?.length} characters of JSON (head and tail records) and the marker, about ${count(Math.round(estimateTokens(`${head}${steady}`) / 100) * 100)} tokens:`,
        `${marker}`,
        `read_result, first page: ${trailers[0]}`,
        `read_result, last page: ${trailers[trailers.length - 1]}`,
        `the pages concatenate to the answer: ${read === answer}`,
      ],
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** `n` with thousands separators. */
function count(n: number): string {
  return n.toLocaleString('en-US');
}
