/**
 * Server child: a small JSON service described by an OpenAPI document (`openapi-clients.ts`
 * holds it), `POST /api/echo` with `{ "message": … }` answered `200 {"echoed": …}`; anything else
 * is 404. Plain `node:http`, so a call costs the server one request and one `JSON.parse`.
 * `node --import tsx bench/servers/openapi-service.ts` (the runner forks it).
 */
import type { IncomingMessage } from 'node:http';
import { serveInChild } from './serve.js';

async function bodyText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

await serveInChild({
  name: 'openapi-service',
  handle: async (req, res, path) => {
    if (req.method !== 'POST' || path !== '/api/echo') {
      res.writeHead(404).end();
      return;
    }
    const { message } = JSON.parse(await bodyText(req)) as { message?: unknown };
    const body = JSON.stringify({ echoed: message });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  },
});
