/**
 * The per-call alternatives against the OpenAPI service child (section 9): ours (the document's
 * one operation mounted as a tool and run through `runTool`) and two raw floors that send the
 * same `POST /api/echo` with plain `fetch` and with undici's `request`. Each `call()` performs one
 * echo and throws unless the answer is the expected one.
 */
import { isDeepStrictEqual } from 'node:util';
import { runTool } from 'stitchkit-transport/binding';
import { defineOpenApiConnection, mountConnections } from 'stitchkit-transport/connections';
import { type CallAlternative, MESSAGE } from './clients.js';

/** The service's document: one operation, a JSON body in, a JSON object out. */
export const ECHO_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'bench echo service', version: '1.0.0' },
  paths: {
    '/echo': {
      post: {
        operationId: 'echo',
        summary: 'Echo a message',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { message: { type: 'string' } },
                required: ['message'],
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'The message, echoed',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { echoed: { type: 'string' } },
                  required: ['echoed'],
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

const ECHOED = { echoed: MESSAGE };
const BODY = JSON.stringify({ message: MESSAGE });

function checkEchoed(value: unknown, who: string): void {
  if (!isDeepStrictEqual(value, ECHOED)) {
    throw new Error(`${who} got an unexpected answer: ${JSON.stringify(value)}`);
  }
}

/**
 * Ours: the document mounted once (`baseUrl` is the service's `/api`), then one `openApiCall` run
 * per call through `runTool`, which validates the input and the answer against the operation.
 */
export async function oursOpenApiAlternative(baseUrl: string): Promise<CallAlternative> {
  const tools = await mountConnections([
    defineOpenApiConnection({ name: 'bench', spec: ECHO_DOCUMENT, baseUrl }),
  ]);
  const echo = tools.find((tool) => tool.name === 'bench__echo');
  if (echo === undefined) throw new Error('bench__echo was not mounted');
  return {
    id: 'ours-openapi',
    name: 'ours (runTool, OpenAPI operation)',
    call: async () => {
      const result = await runTool(echo, { body: { message: MESSAGE } }, { source: 'internal' });
      if (!result.ok) throw new Error(`ours failed: ${JSON.stringify(result)}`);
      checkEchoed(result.data, 'ours');
    },
    close: async () => {},
  };
}

const POST_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };

/** The raw-fetch floor: the same POST with the global `fetch` and `JSON.parse`, nothing checked. */
export function rawFetchOpenApiAlternative(baseUrl: string): CallAlternative {
  const url = `${baseUrl}/echo`;
  return {
    id: 'raw-fetch',
    name: 'raw fetch [floor]',
    call: async () => {
      const response = await fetch(url, { method: 'POST', headers: POST_HEADERS, body: BODY });
      checkEchoed(JSON.parse(await response.text()), 'raw fetch');
    },
    close: async () => {},
  };
}

/** The raw undici floor: the same POST with undici's `request` on an `Agent` of its own. */
export async function rawUndiciOpenApiAlternative(baseUrl: string): Promise<CallAlternative> {
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent();
  const url = `${baseUrl}/echo`;
  return {
    id: 'raw-undici',
    name: 'raw undici request [floor]',
    call: async () => {
      const response = await request(url, {
        method: 'POST',
        headers: POST_HEADERS,
        body: BODY,
        dispatcher,
      });
      checkEchoed(JSON.parse(await response.body.text()), 'raw undici');
    },
    close: () => dispatcher.close(),
  };
}
