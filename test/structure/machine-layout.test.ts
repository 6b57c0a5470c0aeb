/**
 * Every machine has the same file roles (docs/architecture.md, "Machine file roles"): the chart in
 * `<m>.machine.ts`, guards in `<m>.guards.ts` as `<camelM>Guards`, actors behind
 * `make<PascalM>Actors` in `<m>.actors.ts`, and `<m>.policy.ts` and `<m>.types.ts` beside them.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MACHINE_CATALOGUE } from '../../src/machines/catalogue.js';

const MACHINES_DIR = resolve(import.meta.dirname, '../../src/machines');
const ROLES = ['actors', 'guards', 'machine', 'policy', 'types'] as const;

function pascal(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_match, _dash, letter: string) => letter.toUpperCase());
}

describe.each(MACHINE_CATALOGUE.map((entry) => entry.name))('the %s machine', (name) => {
  it('has exactly the five role files', () => {
    const roles = readdirSync(MACHINES_DIR)
      .filter((file) => file.startsWith(`${name}.`) && file.endsWith('.ts'))
      .map((file) => file.slice(name.length + 1, -'.ts'.length))
      .sort();
    expect(roles).toEqual([...ROLES]);
  });

  it('exports its guards object and its actor factory by the conventional names', async () => {
    const camel = pascal(name).replace(/^./, (first) => first.toLowerCase());
    const guards = (await import(join(MACHINES_DIR, `${name}.guards.ts`))) as Record<
      string,
      unknown
    >;
    const actors = (await import(join(MACHINES_DIR, `${name}.actors.ts`))) as Record<
      string,
      unknown
    >;
    expect(typeof guards[`${camel}Guards`]).toBe('object');
    expect(typeof actors[`make${pascal(name)}Actors`]).toBe('function');
  });

  it('registers exactly the guards its guards file exports', async () => {
    const camel = pascal(name).replace(/^./, (first) => first.toLowerCase());
    const guards = (await import(join(MACHINES_DIR, `${name}.guards.ts`))) as Record<
      string,
      Record<string, unknown>
    >;
    const entry = MACHINE_CATALOGUE.find((candidate) => candidate.name === name);
    const registered = Object.keys(
      (entry?.machine.implementations.guards ?? {}) as Record<string, unknown>,
    ).sort();
    expect(registered).toEqual(Object.keys(guards[`${camel}Guards`] ?? {}).sort());
  });
});

describe('machine files', () => {
  it('are only role files of catalogued machines or shared modules', () => {
    const stems = new Set(MACHINE_CATALOGUE.map((entry) => entry.name));
    const strays = readdirSync(MACHINES_DIR).filter((file) => {
      const match = /^([a-z-]+)\.([a-z]+)\.ts$/.exec(file);
      return match !== null && !stems.has(match[1] ?? '');
    });
    expect(strays).toEqual([]);
    expect(existsSync(join(MACHINES_DIR, 'catalogue.ts'))).toBe(true);
  });
});
