/**
 * A closed world of errors on the OpenAPI wires and the download (decision 0035): every planted
 * error (each undici class, `HPE_*`, `Error`, `TypeError`, a string) before the answer's head and
 * in its body, in the spec load at mount, in an OpenAPI call, and in a download. The connection
 * rows must end in the typed failure the contract names with `openapi/spec` or `openapi/call`;
 * the download rows in `DOWNLOAD_FAILED` saying which failure, never where, and no file left.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineOpenApiConnection, mountConnections } from '../../../src/connections/index.js';
import { runDownloadOperation } from '../../../src/operations/download-operation.js';
import { createFileBoundary } from '../../../src/operations/file-boundary.js';
import { DownloadError } from '../../../src/wire/download/download-error.js';
import { reply } from '../../fixtures/fault-replies.js';
import type { FaultServer } from '../../fixtures/fault-types.js';
import { petstoreHandler } from '../../fixtures/petstore.js';
import { useFaultServers } from '../../support/fault-suite.js';
import {
  callOutcome,
  type DispatchedRequest,
  EXPECTED_FAULTS,
  expectedCode,
  expectedFailure,
  expectedRows,
  type FaultInjector,
  type FaultStage,
  faultInjector,
  faultRows,
  mountOutcome,
} from '../../support/wire-faults.js';

const servers = useFaultServers();
const STAGES: readonly FaultStage[] = ['head', 'body'];

const isGetOf = (path: string) => (request: DispatchedRequest) =>
  request.method === 'GET' && request.path.startsWith(path);

function petstore(server: FaultServer, injector: FaultInjector) {
  return defineOpenApiConnection({
    name: 'pets',
    spec: `${server.origin}/openapi.json`,
    dispatcher: injector.dispatcher,
  });
}

describe.each(STAGES)('OpenAPI, an error planted in the %s', (stage) => {
  it('fails the mount typed while loading the document (openapi/spec)', async () => {
    const server = await servers.start(petstoreHandler());
    const injector = faultInjector();
    try {
      const rows = await faultRows(
        injector,
        (error) => ({ target: isGetOf('/openapi.json'), stage, error }),
        (planted) => mountOutcome(mountConnections([petstore(server, injector)]), planted),
      );
      expect(rows).toEqual(
        expectedRows((label) => expectedFailure(label, 'openapi/spec', 'discovery')),
      );
    } finally {
      await injector.close();
    }
  });

  it('fails the call typed (openapi/call)', async () => {
    const server = await servers.start(petstoreHandler());
    const injector = faultInjector();
    try {
      const tools = await mountConnections([petstore(server, injector)]);
      const listPets = tools.find((tool) => tool.name === 'pets__listPets');
      if (listPets === undefined) throw new Error('the petstore mounted no pets__listPets');
      const rows = await faultRows(
        injector,
        (error) => ({ target: isGetOf('/v1/pets'), stage, error }),
        (planted) => callOutcome(listPets, {}, planted),
      );
      expect(rows).toEqual(
        expectedRows(
          (label) => `${expectedCode(label)} ${expectedFailure(label, 'openapi/call', 'call')}`,
        ),
      );
    } finally {
      await injector.close();
    }
  });
});

/** How a download's failure says what failed, as the contract words it (never where). */
const DOWNLOAD_DETAIL: Readonly<Record<string, string>> = {
  protocol: 'the answer broke HTTP/1.1',
  'too-large': 'the answer head was too large',
  closed: 'the connection closed before the answer ended',
  other: 'the request failed for a reason the client does not recognise',
};

function expectedDownloadRow(label: string): string {
  const expected = EXPECTED_FAULTS[label] ?? { kind: 'network', failure: 'other' };
  const detail = DOWNLOAD_DETAIL[expected.kind === 'network' ? expected.failure : expected.kind];
  return `DOWNLOAD_FAILED The download could not be completed (${detail}) (planted), files: 0`;
}

describe.each(STAGES)('a download, an error planted in the %s', (stage) => {
  it('fails DOWNLOAD_FAILED saying which failure, and leaves no file', async () => {
    const server = await servers.start(() =>
      reply.raw(200, { 'content-type': 'text/plain' }, ['the file']),
    );
    const root = await mkdtemp(join(tmpdir(), 'stitchkit-closed-world-'));
    const files = createFileBoundary({ root });
    const injector = faultInjector();
    const restore = injector.throughEveryAgent();
    try {
      const rows = await faultRows(
        injector,
        (error) => ({ target: isGetOf('/file'), stage, error }),
        async (planted) => {
          const outcome = await runDownloadOperation({
            resolveUrl: () => `${server.origin}/file`,
            files,
            allowPrivateHosts: true,
          }).then(
            () => 'downloaded',
            (error: unknown) =>
              DownloadError.isInstance(error)
                ? `${error.code} ${error.message} (${error.cause === planted ? 'planted' : 'other cause'})`
                : `UNTYPED ${String(error)}`,
          );
          return `${outcome}, files: ${(await readdir(root)).length}`;
        },
      );
      expect(rows).toEqual(expectedRows(expectedDownloadRow));
    } finally {
      restore();
      await injector.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
