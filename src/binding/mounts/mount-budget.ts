/**
 * The `resultBudget` option of `mountAgent` and `mountMcp` (decision 0044): the budget for the
 * definitions that carry none of their own, and `read_result` beside them when results spill.
 */
import {
  type AppliedResultBudget,
  checkResultBudget,
  type ResultBudget,
  resultBudgetOf,
} from '../contract/budgeted-tool.js';
import { readResultToolOf } from '../contract/read-result-tool.js';
import { DEFAULT_RESULT_BUDGET_TOKENS } from '../contract/result-budget.js';
import type { AnyRuntimeToolDefinition } from '../contract/runtime-tool.js';

/** A mount's tools with its budget: `applied` is absent when the mount was given none. */
export interface MountBudget {
  /** The tools to mount: the given ones, then `read_result` when results spill and it is missing. */
  readonly tools: readonly AnyRuntimeToolDefinition[];
  /** The budget of the definitions that carry none of their own. */
  readonly applied: AppliedResultBudget | undefined;
}

/**
 * Checks `resultBudget` (`option` names it in messages) and adds the spill's `read_result` to
 * `runtimeTools` when it is not there already. A definition that carries a budget of its own
 * (from `mountConnections`) keeps it: it is never cut twice.
 */
export function mountBudgetOf(
  option: string,
  runtimeTools: readonly AnyRuntimeToolDefinition[],
  resultBudget: ResultBudget | undefined,
): MountBudget {
  if (resultBudget === undefined) return { tools: runtimeTools, applied: undefined };
  const { maxTokens, spill } = checkResultBudget(option, resultBudget);
  const applied: AppliedResultBudget = {
    maxTokens: maxTokens ?? DEFAULT_RESULT_BUDGET_TOKENS,
    ...(spill === undefined ? {} : { spill }),
  };
  if (spill === undefined) return { tools: runtimeTools, applied };
  const reader = readResultToolOf(spill);
  return {
    tools: runtimeTools.includes(reader) ? runtimeTools : [...runtimeTools, reader],
    applied,
  };
}

/** Whether `definition`'s own presenters keep its results within a budget. */
export function isBudgeted(definition: AnyRuntimeToolDefinition): boolean {
  return resultBudgetOf(definition) !== undefined;
}
