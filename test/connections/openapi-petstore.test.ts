/**
 * A petstore-like OpenAPI service end to end: loaded from its URL, mounted, and driven through
 * `mountAgent` with the real `ai` package and through `mountMcp` to a real SDK `Client`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mountAgent, mountMcp, runTool } from '../../src/binding/index.js';
import {
  defineOpenApiConnection,
  describeCatalog,
  mountConnections,
  type SkippedTool,
} from '../../src/connections/index.js';
import type { TransitionRecord } from '../../src/machines/index.js';
import { type FaultServer, startFaultServer } from '../fixtures/fault-server.js';
import { petstoreHandler, petstoreState } from '../fixtures/petstore.js';
import { modelCalling, run, toolMessageOf } from '../support/agent-model.js';
import {
  activeResourceCounts,
  expectNoLeakedResources,
  trackUnhandledRejections,
} from '../support/leaks.js';

let server: FaultServer;
let baseline: ReturnType<typeof activeResourceCounts>;
let start = 0;
const unhandled = trackUnhandledRejections();

beforeAll(async () => {
  baseline = activeResourceCounts();
  server = await startFaultServer(petstoreHandler());
});
beforeEach(() => {
  server.setHandler(petstoreHandler(petstoreState()));
  start = server.requests.length;
});
/** The requests of the running test. */
const seen = () => server.requests.slice(start);
afterAll(async () => {
  await server.close();
  await expectNoLeakedResources(baseline);
  expect(unhandled).toEqual([]);
});

async function mountPetstore(records?: TransitionRecord[]) {
  const skipped: SkippedTool[] = [];
  const tools = await mountConnections(
    [
      defineOpenApiConnection({
        name: 'pets',
        spec: `${server.origin}/openapi.json`,
        ...(records === undefined ? {} : { observe: (record) => records.push(record) }),
      }),
    ],
    { onSkippedTool: (entry) => skipped.push(entry) },
  );
  return { tools, skipped };
}

describe('a petstore loaded from its URL', () => {
  it('mounts one tool per operation, named, described and identified', async () => {
    const { tools, skipped } = await mountPetstore();
    expect(skipped).toEqual([]);
    expect(
      tools.map((tool) => [
        tool.name,
        tool.description,
        tool.identity.action,
        tool.identity.method,
      ]),
    ).toEqual([
      ['pets__listPets', 'List all pets', 'listPets', 'GET'],
      ['pets__createPet', 'Create a pet', 'createPet', 'POST'],
      ['pets__showPetById', 'Info for a specific pet', 'showPetById', 'GET'],
      ['pets__deletePet', 'DELETE /pets/{petId}', 'deletePet', 'DELETE'],
    ]);
    // The spec GET carried no credential and asked for JSON.
    expect(seen().map((request) => [request.method, request.path])).toEqual([
      ['GET', '/openapi.json'],
    ]);
    expect(seen()[0]?.headers.accept).toBe('application/json');
    expect(seen()[0]?.headers.authorization).toBeUndefined();
    expect(describeCatalog(tools).connections).toEqual([
      { connection: 'pets', tools: 4, schemaBytes: expect.any(Number), skipped: 0 },
    ]);
  });

  it('lists, gets, creates and deletes through mountAgent and the real ai package', async () => {
    const { tools } = await mountPetstore();
    const agentTools = mountAgent({ runtimeTools: tools });
    const list = await run(modelCalling('pets__listPets', { limit: 1 }), agentTools);
    expect(list.steps[0]?.toolResults[0]?.output).toEqual([{ id: 1, name: 'Rex', tag: 'dog' }]);
    const get = await run(modelCalling('pets__showPetById', { petId: '2' }), agentTools);
    expect(get.steps[0]?.toolResults[0]?.output).toEqual({ id: 2, name: 'Tom', tag: 'cat' });
    const create = await run(
      modelCalling('pets__createPet', { body: { name: 'Kiki', tag: null } }),
      agentTools,
    );
    expect(create.steps[0]?.toolResults[0]?.output).toEqual({ id: 3, name: 'Kiki' });
    const model = modelCalling('pets__deletePet', { petId: '1' });
    const removed = await run(model, agentTools);
    expect(removed.steps[0]?.toolResults[0]?.output).toBeNull();
    expect(toolMessageOf(model)?.content[0]).toMatchObject({ type: 'tool-result' });
    expect(
      seen()
        .slice(1)
        .map((request) => [request.method, request.path + request.search]),
    ).toEqual([
      ['GET', '/v1/pets?limit=1'],
      ['GET', '/v1/pets/2'],
      ['POST', '/v1/pets'],
      ['DELETE', '/v1/pets/1'],
    ]);
    expect(seen()[3]?.headers['content-type']).toBe('application/json');
    expect(seen()[3]?.json).toEqual({ name: 'Kiki', tag: null });
  });

  it('shows the model the operation schema, not a zod round trip', async () => {
    const { tools } = await mountPetstore();
    const agentTools = mountAgent({ runtimeTools: tools });
    const schema = agentTools.pets__createPet?.inputSchema['~standard'].jsonSchema.input({
      target: 'draft-07',
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        body: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' }, tag: { type: ['string', 'null'] } },
        },
      },
      required: ['body'],
      additionalProperties: false,
    });
  });

  it('refuses invalid input with the validation error and sends nothing', async () => {
    const { tools } = await mountPetstore();
    const create = tools.find((tool) => tool.name === 'pets__createPet');
    if (create === undefined) throw new Error('createPet not mounted');
    const result = await runTool(create, { body: { tag: 'x' } }, { source: 'agent' });
    expect(result).toMatchObject({
      ok: false,
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: ['body', 'name'] }] },
    });
    const unknown = await runTool(create, { body: { name: 'a' }, extra: 1 }, { source: 'agent' });
    expect(unknown).toMatchObject({
      ok: false,
      code: 'VALIDATION_ERROR',
      details: { issues: [{ path: ['extra'] }] },
    });
    expect(seen().filter((request) => request.path.startsWith('/v1'))).toEqual([]);
  });

  it('serves the same tools through mountMcp to an SDK client', async () => {
    const { tools } = await mountPetstore();
    const mcpServer = new McpServer({ name: 'gateway', version: '1.0.0' });
    mountMcp(mcpServer, tools);
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await mcpServer.connect(serverTransport);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientTransport);
    try {
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual([
        'pets__listPets',
        'pets__createPet',
        'pets__showPetById',
        'pets__deletePet',
      ]);
      expect(listed.tools[2]?.inputSchema).toMatchObject({
        type: 'object',
        properties: { petId: { type: 'string' } },
        required: ['petId'],
      });
      const result = await client.callTool({
        name: 'pets__showPetById',
        arguments: { petId: '1' },
      });
      expect(result.isError).toBeUndefined();
      expect(
        result.structuredContent ??
          JSON.parse((result.content as { text: string }[])[0]?.text ?? ''),
      ).toEqual({
        id: 1,
        name: 'Rex',
        tag: 'dog',
      });
    } finally {
      await client.close();
      await mcpServer.close();
    }
  });

  it('records every transition of the spec load and of a call', async () => {
    const records: TransitionRecord[] = [];
    const { tools } = await mountPetstore(records);
    const get = tools.find((tool) => tool.name === 'pets__showPetById');
    if (get === undefined) throw new Error('showPetById not mounted');
    await runTool(get, { petId: '1' }, { source: 'agent' });
    expect(
      records.map((record) => [record.machine, record.from, record.to, record.operation]),
    ).toEqual([
      ['specLoad', '', 'fetching', 'openapi/spec'],
      ['specLoad', 'fetching', 'closed', 'openapi/spec'],
      // No token provider: nothing to resolve, so the call sends at once.
      ['openApiCall', '', 'requesting', 'openapi/call'],
      ['openApiCall', 'requesting', 'closed', 'openapi/call'],
    ]);
  });
});
