/**
 * `stitchkit-transport probe` against servers of each revision and wire (the MCP SDK's own: a v2
 * dual-revision server, v1 Streamable HTTP and legacy-SSE-only servers), against fault servers for each
 * failure class and its exit code, and against an OpenAPI document by URL and from a file. The
 * command runs in-process through `main` with captured streams; the packed `bin` is
 * `test/structure/probe-bin.test.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { ProbeReport, TraceStep } from '../../src/cli/probe-report.js';
import { type FaultServer, mcpHandler, reply, startFaultServer } from '../fixtures/fault-server.js';
import { type McpV2Peers, startMcpV2Peers } from '../fixtures/mcp-v2-peers.js';
import { petstoreDocument, petstoreHandler } from '../fixtures/petstore.js';
import { startTaskServer2026, type TaskServer2026 } from '../fixtures/task-server-2026.js';
import { useMcpPeers } from '../support/peer-suite.js';

const v1 = useMcpPeers();
let v2: McpV2Peers;
let faults: FaultServer;
let tasks: TaskServer2026;
let dir: string;
beforeAll(async () => {
  v2 = await startMcpV2Peers();
  tasks = await startTaskServer2026();
  faults = await startFaultServer(mcpHandler());
  dir = mkdtempSync(join(tmpdir(), 'probe-'));
});
afterAll(async () => {
  await faults.close();
  await v2.close();
  await tasks.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the command line; returns its exit code, its output and its error output. */
async function probe(argv: readonly string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const sink = (write: (text: string) => void) => ({
    write: (chunk: string) => {
      write(chunk);
      return true;
    },
  });
  const code = await main(['probe', ...argv], {
    stdout: sink((text) => {
      stdout += text;
    }) as never,
    stderr: sink((text) => {
      stderr += text;
    }) as never,
    env,
  });
  return { code, stdout, stderr };
}

async function probeJson(argv: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const { code, stdout, stderr } = await probe([...argv, '--json'], env);
  expect(stderr).toBe('');
  return { code, report: JSON.parse(stdout) as ProbeReport };
}

const names = (report: ProbeReport) => report.tools.map((tool) => tool.name);
/** The states a run entered, in order. */
const trace = (run: { readonly trace: readonly TraceStep[] } | undefined) =>
  (run?.trace ?? []).map((step) => step.to);

describe('probe <mcp-url>', () => {
  it('reports a 2026-07-28 server: the stateless wire, its tools, one request', async () => {
    const { code, report } = await probeJson([v2.url('/dual')]);
    expect(code).toBe(0);
    expect(report.negotiated).toEqual({
      protocolVersion: '2026-07-28',
      wire: 'stateless',
      how: 'the 2026-07-28 request was answered in kind',
    });
    expect(names(report)).toEqual(['echo', 'fail', 'route', 'chatty', 'confirm', 'slow']);
    expect(trace(report.discovery)).toEqual(['stateless.requesting.waiting', 'closed']);
    expect(report.tools[0]).toEqual({
      name: 'echo',
      description: 'Echoes the message back.',
      annotations: [],
      schemaBytes: expect.any(Number),
    });
  });

  it('reports a 2025 Streamable HTTP server, and how it got there', async () => {
    const { code, report } = await probeJson([v1.url('/stateful')]);
    expect(code).toBe(0);
    expect(report.negotiated).toEqual({
      protocolVersion: '2025-11-25',
      wire: 'streamable-http',
      how: 'the 2026-07-28 request was answered the way a 2025 server answers, so the 2025 handshake followed',
    });
    expect(trace(report.discovery)).toEqual([
      'stateless.requesting.waiting',
      'session.initializing',
      'session.notifying',
      'session.requesting.waiting',
      'endingSession',
      'closed',
    ]);
  });

  it('reports a legacy-SSE-only server', async () => {
    const { report } = await probeJson([v1.url('/legacy-only')]);
    expect(report.negotiated).toEqual({
      protocolVersion: '2025-11-25',
      wire: 'sse',
      how: 'the Streamable HTTP POST was refused with 400, 404 or 405, so legacy HTTP+SSE followed',
    });
  });

  it('calls a tool with --call and --args, with its result and its own trace', async () => {
    const { code, report } = await probeJson([
      v2.url('/dual'),
      '--call',
      'echo',
      '--args',
      '{"message":"hi"}',
    ]);
    expect(code).toBe(0);
    expect(report.call).toMatchObject({ tool: 'echo', ok: true, progress: [] });
    expect(trace(report.call)).toEqual(['stateless.requesting.waiting', 'closed']);
  });

  it("shows a call that became a task: the task machine's states, timings and statuses", async () => {
    const { code, report } = await probeJson([
      tasks.url,
      '--call',
      'slow_compute',
      '--args',
      '{"polls":1,"label":"probe"}',
    ]);
    expect(code).toBe(0);
    expect(report.call).toMatchObject({ tool: 'slow_compute', ok: true });
    const steps = (report.call?.trace ?? []).map(
      (step) =>
        `${step.machine} ${step.to}${step.task === undefined ? '' : ` ${step.task.status}`}`,
    );
    expect(steps).toEqual([
      'mcpOperation stateless.requesting.waiting',
      'mcpTask working working',
      'mcpOperation task working',
      'mcpTask polling working',
      'mcpTask working working',
      'mcpTask polling working',
      'mcpOperation closed working',
      'mcpTask done completed',
    ]);
    // Each wait between polls is the server's interval (250 ms), measured.
    const waits = (report.call?.trace ?? []).filter(
      (step) => step.machine === 'mcpTask' && step.from === 'working',
    );
    expect(waits.map((step) => step.ms >= 225)).toEqual([true, true]);
    const { stdout } = await probe([tasks.url, '--call', 'slow_compute', '--args', '{"polls":0}']);
    expect(stdout).toMatch(
      /mcpTask polling \d+(\.\d)? ms -> done \(xstate\.done\.actor\.getTask\) task completed/,
    );
  });

  it('answers an input_required round with --answer, and shows what was asked', async () => {
    const { code, report } = await probeJson([
      v2.url('/dual'),
      '--call',
      'confirm',
      '--args',
      '{"env":"staging"}',
      '--answer',
      '{"confirm":true}',
    ]);
    expect(code).toBe(0);
    expect(report.call).toMatchObject({
      ok: true,
      result: 'deployed to staging',
      asked: [{ method: 'elicitation/create', message: 'Deploy to staging?' }],
    });
    expect(trace(report.call)).toEqual([
      'stateless.requesting.waiting',
      'stateless.answeringInput',
      'stateless.requesting.waiting',
      'closed',
    ]);
    // Without --answer the probe declares nothing, and the call says what it lacked.
    const unanswered = await probeJson([
      v2.url('/dual'),
      '--call',
      'confirm',
      '--args',
      '{"env":"x"}',
    ]);
    expect(unanswered.code).toBe(1);
    expect(unanswered.report.call?.error?.message).toBe(
      'Connection "probe" needs client capabilities its caller did not declare (elicitation)',
    );
  });

  it('prints text for a person, without colour off a TTY', async () => {
    const { code, stdout } = await probe([v2.url('/dual')]);
    expect(code).toBe(0);
    expect(stdout).toContain('negotiated   MCP 2026-07-28 on the stateless wire');
    expect(stdout).toContain('tools        6 mounted');
    expect(stdout).not.toContain('\u001b[');
  });

  it('sends the token from --token-env, and never prints it', async () => {
    const { code, report } = await probeJson(
      [v1.url('/stateful'), '--token-env', 'PROBE_TOKEN', '--call', 'whoami'],
      { PROBE_TOKEN: 'tok-probe-secret' },
    );
    expect(code).toBe(0);
    expect(JSON.stringify(report.call?.result)).toContain('Bearer tok-probe-secret');
    const { stdout } = await probe([v1.url('/stateful'), '--token-env', 'PROBE_TOKEN'], {
      PROBE_TOKEN: 'tok-probe-secret',
    });
    expect(stdout).not.toContain('tok-probe-secret');
  });
});

describe('exit codes', () => {
  it.each([
    [
      '2 for a 401, with the challenge',
      2,
      reply.status(401, 'no', {
        'www-authenticate':
          'Bearer resource_metadata="https://auth.example/.well-known/oauth-protected-resource", scope="crm.read"',
      }),
    ],
    ['3 for a 403', 3, reply.status(403, 'no')],
    ['4 for a redirect, with where it pointed', 4, reply.redirect(307, '/elsewhere')],
    ['5 for an answer too large', 5, reply.json(200, { padding: 'x'.repeat(4_096) })],
    ['7 for a deadline', 7, reply.hang()],
  ] as const)('%s', async (_title, expected, answer) => {
    faults.setHandler(mcpHandler({ 'tools/list': answer, initialize: answer }));
    const { code, report } = await probeJson([
      faults.url,
      '--timeout',
      '300',
      '--max-bytes',
      '2048',
    ]);
    expect(code).toBe(expected);
    expect(report.ok).toBe(false);
    if (expected === 2) {
      expect(report.error?.challenge).toEqual({
        scheme: 'bearer',
        resourceMetadata: 'https://auth.example/.well-known/oauth-protected-resource',
        scope: 'crm.read',
      });
    }
    if (expected === 4) expect(report.error?.redirectTo).toBe(`${faults.origin}/elsewhere`);
  });

  it('6 for a network failure; 1 for a bad command line, with one clear line', async () => {
    const closed = await startFaultServer(mcpHandler());
    const url = closed.url;
    await closed.close();
    expect((await probeJson([url])).code).toBe(6);
    const usage = await probe(['--timeout', 'soon', url]);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toBe(
      'stitchkit-transport probe: --timeout takes a positive whole number (got "soon")\n',
    );
    const missing = await probe([url, '--token-env', 'NOT_SET']);
    expect(missing.stderr).toBe(
      'stitchkit-transport probe: --token-env NOT_SET: that environment variable is not set\n',
    );
  });
});

describe('probe --openapi', () => {
  it('reports what mounts and each refused operation grouped by reason, by URL and from a file', async () => {
    const service = await startFaultServer(petstoreHandler());
    try {
      const byUrl = await probeJson(['--openapi', `${service.origin}/openapi.json`]);
      expect(byUrl.code).toBe(0);
      expect(names(byUrl.report)).toEqual([
        'probe__listPets',
        'probe__createPet',
        'probe__showPetById',
        'probe__deletePet',
      ]);
      const file = join(dir, 'openapi.json');
      const document = petstoreDocument() as { paths: Record<string, unknown> };
      document.paths['/upload'] = {
        post: {
          operationId: 'upload',
          requestBody: { content: { 'application/octet-stream': { schema: {} } } },
          responses: { 200: { description: 'ok' } },
        },
      };
      writeFileSync(file, JSON.stringify(document));
      const fromFile = await probeJson([
        '--openapi',
        file,
        '--base-url',
        `${service.origin}/v1`,
        '--call',
        'probe__showPetById',
        '--args',
        '{"petId":"1"}',
      ]);
      expect(fromFile.code).toBe(0);
      expect(fromFile.report.skipped).toEqual([
        {
          tool: 'upload',
          reason: 'non-json-body',
          message: 'POST /upload has a request body that is not application/json',
        },
      ]);
      expect(fromFile.report.call?.result).toEqual({ id: 1, name: 'Rex', tag: 'dog' });
    } finally {
      await service.close();
    }
  });
});
