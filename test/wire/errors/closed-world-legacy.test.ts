/**
 * A closed world of errors on legacy HTTP+SSE (decision 0035), reached by the fallback from a
 * 2025-11-25 `initialize` answered 404: every planted error (each undici class, `HPE_*`, `Error`,
 * `TypeError`, a string) in the stream's GET before its head, in its first chunk, or in the chunk
 * that was to carry an operation's answer once its POST was accepted, and in each POST to the
 * endpoint, at mount and at a call. Each row must end in the typed failure the contract names,
 * told as the failure of the operation in progress.
 */
import { describe, expect, it } from 'vitest';
import type { AnyRuntimeToolDefinition } from '../../../src/binding/index.js';
import { mountConnections } from '../../../src/connections/index.js';
import { legacyMcpHandler } from '../../fixtures/fault-legacy.js';
import { connect, useFaultServers } from '../../support/fault-suite.js';
import {
  callOutcome,
  type DispatchedRequest,
  expectedCode,
  expectedFailure,
  expectedRows,
  type FaultPlan,
  type FaultStage,
  faultInjector,
  faultRows,
  isSizeFault,
  mountOutcome,
} from '../../support/wire-faults.js';

const servers = useFaultServers();

const isStream = (request: DispatchedRequest) => request.method === 'GET';
const isPostOf = (method: string) => (request: DispatchedRequest) =>
  request.path.startsWith('/messages') && request.rpcMethod === method;

/** Where a fault goes: the stream, or the POST of `method`. */
type Place =
  | { readonly at: 'stream'; readonly stage: FaultStage; readonly after?: string }
  | { readonly at: 'post'; readonly method: string; readonly stage: FaultStage };

function planFor(place: Place, error: unknown): FaultPlan {
  if (place.at === 'post') return { target: isPostOf(place.method), stage: place.stage, error };
  return {
    target: isStream,
    stage: place.stage,
    error,
    ...(place.after === undefined ? {} : { after: isPostOf(place.after) }),
  };
}

async function mountTable(place: Place) {
  const server = await servers.start(legacyMcpHandler());
  const injector = faultInjector();
  try {
    return await faultRows(
      injector,
      (error) => planFor(place, error),
      (planted) =>
        mountOutcome(
          mountConnections([connect(server, { dispatcher: injector.dispatcher })]),
          planted,
        ),
    );
  } finally {
    await injector.close();
  }
}

async function callTable(place: Place) {
  const server = await servers.start(legacyMcpHandler());
  const injector = faultInjector();
  try {
    const [tool] = await mountConnections([connect(server, { dispatcher: injector.dispatcher })]);
    return await faultRows(
      injector,
      (error) => planFor(place, error),
      (planted) => callOutcome(tool as AnyRuntimeToolDefinition, { message: 'hi' }, planted),
    );
  } finally {
    await injector.close();
  }
}

const failsAt = (operation: string, phase: 'discovery' | 'call') =>
  expectedRows((label) => expectedFailure(label, operation, phase));
const callFailsAt = (operation: string, phase: 'discovery' | 'call') =>
  expectedRows((label) => `${expectedCode(label)} ${expectedFailure(label, operation, phase)}`);

describe('legacy HTTP+SSE at mount', () => {
  it.each(['head', 'body'] as const)(
    'fails at endpoint when the stream fails in its %s',
    async (stage) => {
      expect(await mountTable({ at: 'stream', stage })).toEqual(failsAt('endpoint', 'discovery'));
    },
  );

  it('fails at tools/list when the stream fails after the tools/list POST was accepted', async () => {
    expect(await mountTable({ at: 'stream', stage: 'body', after: 'tools/list' })).toEqual(
      failsAt('tools/list', 'discovery'),
    );
  });

  it.each([
    ['initialize', 'head'],
    ['initialize', 'body'],
    ['tools/list', 'head'],
    ['tools/list', 'body'],
  ] as const)('fails at %s when its POST fails in the %s', async (method, stage) => {
    expect(await mountTable({ at: 'post', method, stage })).toEqual(failsAt(method, 'discovery'));
  });

  it.each(['head', 'body'] as const)(
    'moves on past a notifications/initialized POST failing in the %s, unless too large',
    async (stage) => {
      expect(await mountTable({ at: 'post', method: 'notifications/initialized', stage })).toEqual(
        expectedRows((label) =>
          isSizeFault(label)
            ? expectedFailure(label, 'notifications/initialized', 'discovery')
            : 'mounted',
        ),
      );
    },
  );
});

describe('legacy HTTP+SSE at a call', () => {
  it.each(['head', 'body'] as const)(
    'fails at endpoint when the stream fails in its %s',
    async (stage) => {
      expect(await callTable({ at: 'stream', stage })).toEqual(
        callFailsAt('endpoint', 'discovery'),
      );
    },
  );

  it.each(['head', 'body'] as const)(
    'moves on past a notifications/initialized POST failing in the %s, unless too large',
    async (stage) => {
      expect(await callTable({ at: 'post', method: 'notifications/initialized', stage })).toEqual(
        expectedRows((label) =>
          isSizeFault(label)
            ? `${expectedCode(label)} ${expectedFailure(label, 'notifications/initialized', 'discovery')}`
            : 'ok',
        ),
      );
    },
  );

  it('fails at tools/call when the stream fails after the tools/call POST was accepted', async () => {
    expect(await callTable({ at: 'stream', stage: 'body', after: 'tools/call' })).toEqual(
      callFailsAt('tools/call', 'call'),
    );
  });

  it.each([
    ['initialize', 'head', 'discovery'],
    ['initialize', 'body', 'discovery'],
    ['tools/call', 'head', 'call'],
    ['tools/call', 'body', 'call'],
  ] as const)('fails at %s when its POST fails in the %s', async (method, stage, phase) => {
    expect(await callTable({ at: 'post', method, stage })).toEqual(callFailsAt(method, phase));
  });
});
