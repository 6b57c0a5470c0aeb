/**
 * A Stately-importable source of a machine definition: its authoring config as a literal.
 * Pure: no I/O; the output depends only on the definition.
 */
import type { AnyStateMachine } from 'xstate';

/**
 * A JavaScript module that rebuilds the machine's authoring config with `createMachine`, for
 * Stately Studio's "Import from code" or the visualizer. Implementations stay named references;
 * inline functions (input mappers, params, context factories) are dropped by JSON.
 */
export function toStatelySource(machine: AnyStateMachine): string {
  const config = JSON.stringify(machine.config, null, 2);
  return `import { createMachine } from 'xstate';\nexport default createMachine(${config});\n`;
}
