import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildToolManifest,
  defineRuntimeTool,
  listToolNames,
  mountAgent,
  summarizeTransports,
} from '../../../src/binding/index.js';

const search = defineRuntimeTool({
  name: 'search',
  description: 'Searches invoices',
  identity: { serviceName: 'billing', action: 'searchInvoices', method: 'GET' },
  input: z.object({ query: z.string().describe('Free text'), limit: z.number().int().optional() }),
  annotations: { readOnlyHint: true },
  handler: () => [],
});
const archive = defineRuntimeTool({
  name: 'archive',
  description: 'Archives an invoice',
  identity: { serviceName: 'billing', action: 'archiveInvoice', method: 'POST' },
  input: z.object({ id: z.string() }),
  transports: ['AGENT', 'CLI'],
  handler: () => null,
});
const cliOnly = defineRuntimeTool({
  name: 'export',
  description: 'Exports data',
  identity: { serviceName: 'ops', action: 'export', method: 'GET' },
  input: z.object({}),
  transports: ['CLI'],
  handler: () => null,
});
const clashingSearch = defineRuntimeTool({
  ...search,
  identity: { serviceName: 'crm', action: 'searchContacts', method: 'GET' },
});

describe('listToolNames', () => {
  it('lists every definition sorted by name, with resolved transports', () => {
    expect(listToolNames([search, archive, cliOnly])).toEqual([
      {
        name: 'archive',
        service: 'billing',
        action: 'archiveInvoice',
        method: 'POST',
        transports: ['AGENT', 'CLI'],
      },
      { name: 'export', service: 'ops', action: 'export', method: 'GET', transports: ['CLI'] },
      {
        name: 'search',
        service: 'billing',
        action: 'searchInvoices',
        method: 'GET',
        transports: ['MCP', 'AGENT'],
      },
    ]);
  });

  it('still shows duplicate names, ordered by service', () => {
    expect(listToolNames([search, clashingSearch]).map((entry) => entry.service)).toEqual([
      'billing',
      'crm',
    ]);
  });
});

describe('buildToolManifest', () => {
  it('advertises only the tools on the transport, with JSON Schema and annotations', () => {
    expect(buildToolManifest([search, archive, cliOnly], { transport: 'MCP' })).toEqual([
      {
        name: 'search',
        description: 'Searches invoices',
        inputSchema: {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          properties: {
            query: { type: 'string', description: 'Free text' },
            limit: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
          },
          required: ['query'],
        },
        annotations: { readOnlyHint: true },
      },
    ]);
    expect(
      buildToolManifest([search, archive, cliOnly], { transport: 'AGENT' }).map((e) => e.name),
    ).toEqual(['search', 'archive']);
  });

  it('lists one definition given twice once', () => {
    expect(
      buildToolManifest([search, archive, search], { transport: 'MCP' }).map((e) => e.name),
    ).toEqual(['search']);
  });

  it('refuses duplicate names, naming both sources', () => {
    expect(() => buildToolManifest([search, clashingSearch], { transport: 'MCP' })).toThrow(
      'Duplicate MCP tool name "search" across mounted operations: billing.searchInvoices, crm.searchContacts',
    );
  });

  it('refuses an input without a JSON Schema form, naming the tool', () => {
    const dated = defineRuntimeTool({
      ...search,
      input: z.object({ at: z.date() }),
      handler: () => [],
    });
    expect(() => buildToolManifest([dated], { transport: 'MCP' })).toThrow(
      /^Runtime tool "search": input cannot be converted to JSON Schema/,
    );
  });
});

describe('summarizeTransports', () => {
  it('counts the tools per transport', () => {
    expect(summarizeTransports([search, archive, cliOnly])).toEqual({
      totals: { MCP: 1, AGENT: 2, CLI: 2 },
    });
  });
});

describe('mountAgent surface', () => {
  it('mounts only AGENT tools and refuses duplicate names naming both sources', () => {
    expect(Object.keys(mountAgent({ runtimeTools: [search, archive, cliOnly] }))).toEqual([
      'search',
      'archive',
    ]);
    expect(() => mountAgent({ runtimeTools: [search, clashingSearch] })).toThrow(
      'Duplicate agent tool name "search" across mounted operations: billing.searchInvoices, crm.searchContacts',
    );
  });
});
