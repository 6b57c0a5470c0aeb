/**
 * The catalog: figures per connection and in total that match the budget check byte for byte,
 * the budget with its headroom, and the skipped tools with their reasons.
 */
import { describe, expect, it } from 'vitest';
import {
  ConnectionBudgetExceededError,
  defineOpenApiConnection,
  describeCatalog,
  mountConnections,
} from '../../src/connections/index.js';

const document = (paths: Record<string, unknown>) => ({
  openapi: '3.1.0',
  servers: [{ url: 'https://api.example.com' }],
  paths,
});
const billing = defineOpenApiConnection({
  name: 'billing',
  spec: document({
    '/invoices': {
      get: {
        operationId: 'listInvoices',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }],
      },
      post: { operationId: 'upload', requestBody: { content: { 'text/csv': {} } } },
    },
    '/invoices/{id}': {
      get: { operationId: 'getInvoice', parameters: [{ name: 'id', in: 'path' }] },
    },
  }),
});
const legacy = defineOpenApiConnection({
  name: 'legacy',
  spec: document({ '/x': { trace: { operationId: 'traceX' } } }),
});

describe('describeCatalog', () => {
  it('reports every mounted connection, its skipped tools and their reasons', async () => {
    const tools = await mountConnections([billing, legacy], { onSkippedTool: () => undefined });
    const catalog = describeCatalog(tools);
    const billingBytes = Buffer.byteLength(
      JSON.stringify(tools[0]?.inputJsonSchema) + JSON.stringify(tools[1]?.inputJsonSchema),
    );
    expect(catalog).toEqual({
      connections: [
        { connection: 'billing', tools: 2, schemaBytes: billingBytes, skipped: 1 },
        { connection: 'legacy', tools: 0, schemaBytes: 0, skipped: 1 },
      ],
      totals: { tools: 2, schemaBytes: billingBytes, skipped: 2 },
      skipped: [
        {
          connection: 'billing',
          tool: 'upload',
          reason: 'non-json-body',
          message: 'POST /invoices has a request body that is not application/json',
        },
        {
          connection: 'legacy',
          tool: 'traceX',
          reason: 'unsupported-method',
          message: 'TRACE /x uses TRACE, which is not in the supported subset',
        },
      ],
      // Estimated tokens of the two tools shown whole, and of the three search meta-tools.
      footprint: { inlineTokens: 95, searchTokens: 409 },
    });
  });

  it('counts bytes exactly as the budget does: equal passes, one byte less fails naming the figures', async () => {
    const tools = await mountConnections([billing], { onSkippedTool: () => undefined });
    const { schemaBytes } = describeCatalog(tools).totals;
    const fits = await mountConnections([billing], {
      budget: { maxTools: 2, maxSchemaBytes: schemaBytes },
      onSkippedTool: () => undefined,
    });
    expect(describeCatalog(fits).budget).toEqual({
      maxTools: 2,
      maxSchemaBytes: schemaBytes,
      headroom: { tools: 0, schemaBytes: 0 },
    });
    const error = await mountConnections([billing], {
      budget: { maxSchemaBytes: schemaBytes - 1 },
      onSkippedTool: () => undefined,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionBudgetExceededError);
    expect(error).toMatchObject({
      limit: schemaBytes - 1,
      actual: schemaBytes,
      unit: 'schema bytes',
    });
    expect((error as Error).message).toContain(String(schemaBytes));
  });

  it('shows the headroom under a budget given to it, and keeps the result a plain array', async () => {
    const tools = await mountConnections([billing], { onSkippedTool: () => undefined });
    expect(Array.isArray(tools)).toBe(true);
    expect(Object.keys(tools)).toEqual(['0', '1']);
    const { budget, totals } = describeCatalog(tools, {
      budget: { maxTools: 10, maxSchemaBytes: 100 },
    });
    expect(budget).toEqual({
      maxTools: 10,
      maxSchemaBytes: 100,
      headroom: { tools: 8, schemaBytes: 100 - totals.schemaBytes },
    });
    expect(describeCatalog([...tools]).skipped).toEqual([]);
  });
});
