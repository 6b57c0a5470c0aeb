/**
 * A closed world of errors on Streamable HTTP (decision 0035): every error class undici exports,
 * `HPE_*` parser errors, a plain `Error`, a `TypeError` and a string, planted into each exchange
 * of a real 2025-11-25 handshake and of a 2026-07-28 request against a server on 127.0.0.1,
 * before the answer's head and in its body, at mount and at a call. Each row must end in the
 * typed failure the contract names, with the operation and phase that broke and the planted
 * error as its cause; the best-effort `notifications/initialized` moves on unless its answer was
 * too large.
 */
import { describe, expect, it } from 'vitest';
import type { AnyRuntimeToolDefinition } from '../../../src/binding/index.js';
import { mountConnections } from '../../../src/connections/index.js';
import { mcpHandler } from '../../fixtures/fault-mcp.js';
import type { FaultServer } from '../../fixtures/fault-types.js';
import { connect, useFaultServers } from '../../support/fault-suite.js';
import {
  callOutcome,
  type DispatchedRequest,
  expectedCode,
  expectedFailure,
  expectedRows,
  type FaultInjector,
  type FaultStage,
  faultInjector,
  faultRows,
  isSizeFault,
  mountOutcome,
} from '../../support/wire-faults.js';

const servers = useFaultServers();

type Revision = '2025-11-25' | '2026-07-28';

function connectionFor(server: FaultServer, injector: FaultInjector, revision: Revision) {
  return connect(server, {
    dispatcher: injector.dispatcher,
    transport: { url: server.url, protocolVersion: revision },
  });
}

const isRpc = (method: string) => (request: DispatchedRequest) => request.rpcMethod === method;

/** The mount's rows for an error planted in `target`, on a fresh server. */
async function mountTable(revision: Revision, target: string, stage: FaultStage) {
  const server = await servers.start(mcpHandler({}, { stateless: revision === '2026-07-28' }));
  const injector = faultInjector();
  try {
    return await faultRows(
      injector,
      (error) => ({ target: isRpc(target), stage, error }),
      (planted) =>
        mountOutcome(mountConnections([connectionFor(server, injector, revision)]), planted),
    );
  } finally {
    await injector.close();
  }
}

/** A call's rows for an error planted in `target`, on a tool mounted without a fault. */
async function callTable(revision: Revision, target: string, stage: FaultStage) {
  const server = await servers.start(mcpHandler({}, { stateless: revision === '2026-07-28' }));
  const injector = faultInjector();
  try {
    const [tool] = await mountConnections([connectionFor(server, injector, revision)]);
    return await faultRows(
      injector,
      (error) => ({ target: isRpc(target), stage, error }),
      (planted) => callOutcome(tool as AnyRuntimeToolDefinition, { message: 'hi' }, planted),
    );
  } finally {
    await injector.close();
  }
}

const STAGES: readonly FaultStage[] = ['head', 'body'];

describe.each(STAGES)('Streamable HTTP 2025-11-25, an error planted in the %s', (stage) => {
  it.each(['initialize', 'tools/list'])('fails the mount typed at %s', async (operation) => {
    expect(await mountTable('2025-11-25', operation, stage)).toEqual(
      expectedRows((label) => expectedFailure(label, operation, 'discovery')),
    );
  });

  it('moves on past notifications/initialized at mount, unless its answer was too large', async () => {
    expect(await mountTable('2025-11-25', 'notifications/initialized', stage)).toEqual(
      expectedRows((label) =>
        isSizeFault(label)
          ? expectedFailure(label, 'notifications/initialized', 'discovery')
          : 'mounted',
      ),
    );
  });

  it.each([
    ['initialize', 'discovery'],
    ['tools/call', 'call'],
  ] as const)('fails the call typed at %s', async (operation, phase) => {
    expect(await callTable('2025-11-25', operation, stage)).toEqual(
      expectedRows((label) => `${expectedCode(label)} ${expectedFailure(label, operation, phase)}`),
    );
  });

  it('moves on past notifications/initialized at a call, unless its answer was too large', async () => {
    expect(await callTable('2025-11-25', 'notifications/initialized', stage)).toEqual(
      expectedRows((label) =>
        isSizeFault(label)
          ? `${expectedCode(label)} ${expectedFailure(label, 'notifications/initialized', 'discovery')}`
          : 'ok',
      ),
    );
  });
});

describe.each(STAGES)('MCP 2026-07-28, an error planted in the %s', (stage) => {
  it('fails the mount typed at its tools/list request', async () => {
    expect(await mountTable('2026-07-28', 'tools/list', stage)).toEqual(
      expectedRows((label) => expectedFailure(label, 'tools/list', 'discovery')),
    );
  });

  it('fails the call typed at its tools/call request', async () => {
    expect(await callTable('2026-07-28', 'tools/call', stage)).toEqual(
      expectedRows(
        (label) => `${expectedCode(label)} ${expectedFailure(label, 'tools/call', 'call')}`,
      ),
    );
  });
});
