import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, setup } from 'xstate';
import { toMermaid } from '../../src/diagrams/mermaid.js';
import { toStatelySource } from '../../src/diagrams/stately.js';
import { waitMachine } from '../../src/machines/wait/wait.machine.js';

const nested = setup({
  guards: { isFallbackStatus: () => true },
  actions: { teardown: () => {} },
  delays: { HANDSHAKE_DEADLINE: 1_000 },
}).createMachine({
  id: 'nested',
  initial: 'handshake',
  states: {
    handshake: {
      initial: 'streamable',
      after: { HANDSHAKE_DEADLINE: 'closing' },
      on: { CANCEL: 'closing' },
      states: {
        streamable: { on: { STATUS: { guard: 'isFallbackStatus', target: 'legacy' } } },
        legacy: {},
      },
    },
    closing: { entry: 'teardown', always: 'closed' },
    closed: { type: 'final' },
  },
});

describe('toMermaid', () => {
  it('labels deadlines by delay name, invoke results by actor id and guards by name', () => {
    const text = toMermaid(waitMachine);
    expect(text.startsWith('stateDiagram-v2\n')).toBe(true);
    for (const fragment of [
      'polling --> closed : after POLL_DEADLINE [hasState] / timeOutWithState',
      'sleeping --> polling : after BACKOFF_SLEEP',
      'polling --> closed : done(poll) [isDoneState] / succeed',
      'polling --> closed : error(poll) / failWithError',
      'anyState --> closed : CANCEL / failCancelled',
      'polling : invoke poll',
      'closed : entry / teardown',
      'closed --> [*]',
    ]) {
      expect(text).toContain(fragment);
    }
  });

  it('draws nested states as composite states and includes always transitions', () => {
    expect(toMermaid(nested)).toBe(
      [
        'stateDiagram-v2',
        '  [*] --> handshake',
        '  state handshake {',
        '    [*] --> handshake_streamable',
        '    handshake_streamable --> handshake_legacy : STATUS [isFallbackStatus]',
        '  }',
        '  closing : entry / teardown',
        '  closed --> [*]',
        '  handshake --> closing : CANCEL',
        '  handshake --> closing : after HANDSHAKE_DEADLINE',
        '  closing --> closed : always',
        '',
      ].join('\n'),
    );
  });
});

describe('toStatelySource', () => {
  it.each([
    ['wait', waitMachine],
    ['nested', nested],
  ] as const)('evaluates to a machine with the same config as %s', async (_, machine) => {
    const source = toStatelySource(machine as AnyStateMachine);
    expect(
      source.startsWith("import { createMachine } from 'xstate';\nexport default createMachine({"),
    ).toBe(true);
    // Written inside the project so that `xstate` resolves from node_modules.
    const dir = await mkdtemp(join(process.cwd(), '.tmp-stately-'));
    try {
      const file = join(dir, 'machine.mjs');
      await writeFile(file, source);
      const imported = (await import(pathToFileURL(file).href)) as { default: AnyStateMachine };
      expect(imported.default.config).toEqual(JSON.parse(JSON.stringify(machine.config)));
      expect(toMermaid(imported.default)).toBe(toMermaid(machine as AnyStateMachine));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
