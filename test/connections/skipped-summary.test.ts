/**
 * A mount without `onSkippedTool` prints a summary, not a line per tool: one line per connection
 * and reason with the count and one example, and one more when a connection mounts nothing. With
 * `onSkippedTool`, nothing is printed and every report reaches it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  defineOpenApiConnection,
  mountConnections,
  type SkippedTool,
} from '../../src/connections/index.js';

/** `count` operations that send a form body, and one that refers to another document. */
function documentWith(count: number, jsonOperation = false) {
  const paths: Record<string, unknown> = {};
  for (let index = 0; index < count; index++) {
    paths[`/form${index}`] = {
      post: {
        operationId: `form${index}`,
        requestBody: {
          content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
        },
        responses: { '200': { description: 'ok' } },
      },
    };
  }
  paths['/remote'] = {
    get: {
      operationId: 'remote',
      parameters: [{ $ref: 'https://example.com/shared.json#/parameters/id' }],
      responses: { '200': { description: 'ok' } },
    },
  };
  if (jsonOperation) {
    paths['/ping'] = { get: { operationId: 'ping', responses: { '200': { description: 'ok' } } } };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'forms', version: '1' },
    servers: [{ url: 'http://127.0.0.1:9/api' }],
    paths,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the default report of skipped tools', () => {
  it('is one line per reason with its count, and one when the connection mounts nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const tools = await mountConnections([
      defineOpenApiConnection({ name: 'forms', spec: documentWith(450) }),
    ]);
    expect(tools).toEqual([]);
    expect(warn.mock.calls.map(([line]) => String(line).replace(/: .*$/s, ''))).toEqual([
      '[stitchkit-transport] connection "forms"',
      '[stitchkit-transport] connection "forms"',
      '[stitchkit-transport] connection "forms" mounted no tools (451 skipped); pass onSkippedTool to see each, or read describeCatalog(tools).skipped',
    ]);
    const [formLine, refLine] = warn.mock.calls.map(([line]) => String(line));
    expect(formLine).toMatch(
      /^\[stitchkit-transport\] connection "forms": 450 tools not mounted \(non-json-body\), e\.g\. "form0": /,
    );
    expect(refLine).toMatch(
      /^\[stitchkit-transport\] connection "forms": 1 tool not mounted \(external-ref\), e\.g\. "remote": /,
    );
  });

  it('prints nothing for a connection that mounts everything, and nothing when onSkippedTool is given', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const reports: SkippedTool[] = [];
    const tools = await mountConnections(
      [defineOpenApiConnection({ name: 'forms', spec: documentWith(2, true) })],
      { onSkippedTool: (report) => reports.push(report) },
    );
    expect(tools.map((tool) => tool.name)).toEqual(['forms__ping']);
    expect(reports.map((report) => `${report.tool} ${report.reason}`)).toEqual([
      'form0 non-json-body',
      'form1 non-json-body',
      'remote external-ref',
    ]);
    expect(warn).not.toHaveBeenCalled();
  });
});
