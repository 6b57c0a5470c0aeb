/**
 * Catalog search over an OpenAPI document whose operationIds and summaries say nothing: an
 * operation is found by its path's literal segments and by its tags (decision 0045), through the
 * mount's definitions as any runner gets them, and through a copy the library budgets again.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withResultBudget } from '../../../src/binding/contract/budgeted-tool.js';
import {
  markSearchKeywords,
  searchKeywordsOf,
} from '../../../src/binding/contract/search-keywords.js';
import {
  type AnyRuntimeToolDefinition,
  defineRuntimeTool,
  runTool,
  searchCatalog,
} from '../../../src/binding/index.js';
import { defineOpenApiConnection, mountConnections } from '../../../src/connections/index.js';
import { searchedNames } from '../../fixtures/catalog-queries/github-catalog.js';

const opaque = (operationId: string, tags: string[]) => ({
  get: {
    operationId,
    tags,
    summary: 'Get one',
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
    responses: { '200': { description: 'ok' } },
  },
});

const spec = {
  openapi: '3.1.0',
  info: { title: 'opaque', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  paths: {
    '/v1/invoices/{id}': opaque('op1', ['Billing']),
    '/v1/customers/{id}': opaque('op2', ['CRM']),
    '/v1/shipments/{id}': opaque('op3', ['Logistics']),
  },
};

async function found(tools: readonly AnyRuntimeToolDefinition[], query: string) {
  const [search] = searchCatalog(tools);
  if (search === undefined) throw new Error('no search_tools');
  return searchedNames(await runTool(search, { query }, { source: 'internal' }));
}

describe('an OpenAPI operation found by its path and its tags', () => {
  it('ranks the operation whose path or tag holds the word, the others not at all', async () => {
    const tools = await mountConnections([defineOpenApiConnection({ name: 'shop', spec })]);
    expect(tools.map((tool) => tool.name)).toEqual(['shop__op1', 'shop__op2', 'shop__op3']);
    expect(await found(tools, 'get an invoice')).toEqual(['shop__op1']);
    expect(await found(tools, 'invoices')).toEqual(['shop__op1']);
    expect(await found(tools, 'billing')).toEqual(['shop__op1']);
    expect(await found(tools, 'customer')).toEqual(['shop__op2']);
    expect(await found(tools, 'crm')).toEqual(['shop__op2']);
    expect(await found(tools, 'logistics shipment')).toEqual(['shop__op3']);
  });

  it('keeps them on a copy the library budgets again', async () => {
    const tools = await mountConnections([defineOpenApiConnection({ name: 'shop', spec })]);
    const copies = tools.map((tool) => withResultBudget(tool, { maxTokens: 1_000 }));
    expect(copies[1]).not.toBe(tools[1]);
    expect(await found(copies, 'customers')).toEqual(['shop__op2']);
  });
});

describe('the words recorded beside a definition', () => {
  const tool = () =>
    defineRuntimeTool({
      name: 'plain',
      description: 'A tool',
      identity: { serviceName: 'svc', action: 'plain', method: 'GET' },
      input: z.object({}),
      handler: () => ({}),
    });

  it('are none for a definition nobody marked, and what was recorded otherwise', () => {
    expect(searchKeywordsOf(tool())).toBe('');
    const marked = tool();
    expect(markSearchKeywords(marked, 'v1 invoices Billing')).toBe(marked);
    expect(searchKeywordsOf(marked)).toBe('v1 invoices Billing');
  });

  it('are made by the recorded function once, on the first read', () => {
    const marked = tool();
    let made = 0;
    markSearchKeywords(marked, () => {
      made += 1;
      return 'v1 customers CRM';
    });
    expect(made).toBe(0);
    expect([searchKeywordsOf(marked), searchKeywordsOf(marked)]).toEqual([
      'v1 customers CRM',
      'v1 customers CRM',
    ]);
    expect(made).toBe(1);
  });
});
