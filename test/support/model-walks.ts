/**
 * Every machine of the registry with its models, each model with the harness that walks it on
 * the real actor: what the edge-set checks and their seeded defects iterate over.
 */
import type { AnyStateMachine } from 'xstate';
import { MACHINE_REGISTRY } from '../../src/machines/registry.js';
import { downloadModelOptions, downloadWalkHarness } from './model-download.js';
import type { ModelOptions } from './model-graph.js';
import {
  listenModelOptions,
  listenSessionModelOptions,
  listenTokenlessModelOptions,
  listenWalkHarness,
} from './model-listen.js';
import { MCP_TASK_MODELS, mcpTaskWalkHarness } from './model-mcp-task.js';
import { MCP_MODELS, mcpWalkHarness } from './model-mcp-walk.js';
import {
  openApiCallModelOptions,
  openApiCallTokenlessModelOptions,
  openApiCallWalkHarness,
} from './model-open-api-call.js';
import { retryModelOptions, retryWalkHarness } from './model-retry.js';
import { specLoadModelOptions, specLoadWalkHarness } from './model-spec-load.js';
import { waitModelOptions, waitWalkHarness } from './model-wait.js';
import type { WalkHarness } from './model-walk.js';

/** One model of a machine: its section name, its options, and its walk on a given definition. */
export interface WalkedModel {
  readonly name: string;
  readonly options: ModelOptions;
  readonly harness: (definition: AnyStateMachine) => WalkHarness;
}

/** A registered machine and its models. */
export interface MachineModels {
  /** The registry name (`mcp-operation`), which names the edge file. */
  readonly name: string;
  readonly machine: AnyStateMachine;
  readonly models: readonly WalkedModel[];
}

const single = (
  name: string,
  options: ModelOptions,
  harness: (definition: AnyStateMachine) => WalkHarness,
): readonly WalkedModel[] => [{ name, options, harness }];

const MODELS_BY_MACHINE: Readonly<Record<string, readonly WalkedModel[]>> = {
  'mcp-operation': MCP_MODELS.map(({ name, options }) => ({
    name,
    options,
    harness: (definition: AnyStateMachine) => mcpWalkHarness(options, definition),
  })),
  'mcp-task': MCP_TASK_MODELS.map(({ name, options }) => ({
    name,
    options,
    harness: (definition: AnyStateMachine) => mcpTaskWalkHarness(options, definition),
  })),
  listen: [
    { name: 'listen', options: listenModelOptions, harness: listenWalkHarness },
    {
      name: 'listen, no token provider',
      options: listenTokenlessModelOptions,
      harness: (definition: AnyStateMachine) =>
        listenWalkHarness(definition, listenTokenlessModelOptions),
    },
    {
      name: 'listen, a 2025 session',
      options: listenSessionModelOptions,
      harness: (definition: AnyStateMachine) =>
        listenWalkHarness(definition, listenSessionModelOptions),
    },
  ],
  'spec-load': single('specLoad', specLoadModelOptions, specLoadWalkHarness),
  'open-api-call': [
    { name: 'openApiCall', options: openApiCallModelOptions, harness: openApiCallWalkHarness },
    {
      name: 'openApiCall, no token provider',
      options: openApiCallTokenlessModelOptions,
      harness: (definition: AnyStateMachine) =>
        openApiCallWalkHarness(definition, openApiCallTokenlessModelOptions),
    },
  ],
  retry: single('retry', retryModelOptions, retryWalkHarness),
  wait: single('wait', waitModelOptions, waitWalkHarness),
  download: single('download', downloadModelOptions, downloadWalkHarness),
};

/** Every registered machine with its models, in registry order. */
export const MACHINE_MODELS: readonly MachineModels[] = MACHINE_REGISTRY.map(
  ({ name, machine }) => {
    const models = MODELS_BY_MACHINE[name];
    if (models === undefined) throw new Error(`machine ${name} has no model: add it here`);
    return { name, machine, models };
  },
);
