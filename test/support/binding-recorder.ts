/**
 * Recording hooks and lifecycle for binding tests: every step a call takes is pushed to `steps`,
 * so a test can assert the whole sequence with `toEqual`.
 */
import type { ToolCallHooks, ToolLifecycle } from '../../src/binding/index.js';

/** One observed step of a tool call. */
export type RecordedStep = { step: string } & Record<string, unknown>;

/** Hooks and lifecycle that record what they see, plus the shared step log. */
export interface Recorder {
  steps: RecordedStep[];
  hooks: ToolCallHooks;
  lifecycle: ToolLifecycle;
}

/** Builds a recorder; `overrides` replace individual hooks or lifecycle steps after recording. */
export function createRecorder(
  overrides: { hooks?: Partial<ToolCallHooks>; lifecycle?: Partial<ToolLifecycle> } = {},
): Recorder {
  const steps: RecordedStep[] = [];
  const hooks: ToolCallHooks = {
    beforeToolCall(info) {
      steps.push({ step: 'beforeToolCall', toolName: info.toolName, args: info.args });
      return overrides.hooks?.beforeToolCall?.(info);
    },
    async onToolError(info) {
      steps.push({ step: 'onToolError', error: info.error });
      await overrides.hooks?.onToolError?.(info);
    },
    async afterToolCall(info) {
      const { toolName, args, result, error, effectiveArgs } = info;
      steps.push({
        step: 'afterToolCall',
        toolName,
        args,
        result,
        ...('error' in info ? { error } : {}),
        ...('effectiveArgs' in info ? { effectiveArgs } : {}),
      });
      await overrides.hooks?.afterToolCall?.(info);
    },
    onHookError(info) {
      steps.push({ step: 'onHookError', hook: info.hook, error: info.error });
    },
  };
  const lifecycle: ToolLifecycle = {
    async beforeHandle(ctx, definition) {
      steps.push({ step: 'beforeHandle', input: ctx.input });
      await overrides.lifecycle?.beforeHandle?.(ctx, definition);
    },
    async afterHandle(ctx, result, definition) {
      steps.push({ step: 'afterHandle', result });
      return overrides.lifecycle?.afterHandle?.(ctx, result, definition);
    },
  };
  return { steps, hooks, lifecycle };
}
