import { describe, expect, it } from 'vitest';
import { agentToolErrorFromResult } from '../../../src/binding/contract/agent-tool-error.js';
import { toolResultFromError } from '../../../src/binding/contract/tool-result.js';
import { AppError, projectToolError } from '../../../src/binding/kernel/app-error.js';
import { ConnectionBudgetExceededError } from '../../../src/connections/errors.js';
import { ConnectionCredentialError } from '../../../src/wire/errors/credential-error.js';
import {
  ConnectionAuthorizationRequiredError,
  ConnectionError,
  ConnectionProtocolError,
  ConnectionRequestError,
  ConnectionResponseTooLargeError,
  ConnectionTimeoutError,
  ConnectionUrlError,
  MAX_ERROR_BODY_CHARS,
} from '../../../src/wire/errors/errors.js';
import { ConnectionTaskError } from '../../../src/wire/errors/task-error.js';

const SECRET_NAME = 'secret-conn-7f3a';
const SECRET_URL = 'https://user:pw@api.example.test/mcp?token=SECRET-QUERY-TOKEN#frag';
const SECRET_BODY = 'SECRET-BODY-MARKER Bearer SECRET-BEARER-TOKEN';
const CHALLENGE = {
  scheme: 'bearer',
  realm: 'SECRET-REALM',
  scope: 'SECRET-SCOPE:write',
  error: 'insufficient_scope',
  errorDescription: 'SECRET-DESCRIPTION',
  resourceMetadata: 'https://auth.example.test/.well-known/oauth-protected-resource',
} as const;
const MARKERS = [
  SECRET_NAME,
  'api.example.test',
  'SECRET-QUERY-TOKEN',
  'SECRET-BODY-MARKER',
  'SECRET-BEARER-TOKEN',
  'auth.example.test',
  'SECRET-REALM',
  'SECRET-SCOPE',
  'SECRET-DESCRIPTION',
  'insufficient_scope',
  'oauth-protected-resource',
];

type AnyErrorClass = {
  isInstance(value: unknown): boolean;
  // biome-ignore lint/suspicious/noExplicitAny: the table holds constructors of different arity
  new (...args: any[]): Error;
};

interface Row {
  label: string;
  /** The host-facing message, written by the class itself. */
  message: string;
  make: () => Error;
  errorClass: AnyErrorClass;
  name: string;
  code: string;
  projectedCode: string;
  status: number;
  retryable: boolean;
  reason: string;
  details: Record<string, unknown>;
}

const rows: Row[] = [
  {
    label: 'authorization required',
    message: `Connection "${SECRET_NAME}" requires authorization`,
    make: () =>
      new ConnectionAuthorizationRequiredError({
        connectionName: SECRET_NAME,
        operation: 'tools/call',
        cause: new Error(SECRET_BODY),
      }),
    errorClass: ConnectionAuthorizationRequiredError,
    name: 'ConnectionAuthorizationRequiredError',
    code: 'CONNECTION_AUTHORIZATION_REQUIRED',
    projectedCode: 'UNAUTHORIZED',
    status: 401,
    retryable: false,
    reason: 'authorization-required',
    details: { operation: 'tools/call', phase: 'call' },
  },
  {
    label: 'authorization required with a challenge',
    message: `Connection "${SECRET_NAME}" requires authorization`,
    make: () =>
      new ConnectionAuthorizationRequiredError({
        connectionName: SECRET_NAME,
        operation: 'initialize',
        challenge: CHALLENGE,
      }),
    errorClass: ConnectionAuthorizationRequiredError,
    name: 'ConnectionAuthorizationRequiredError',
    code: 'CONNECTION_AUTHORIZATION_REQUIRED',
    projectedCode: 'UNAUTHORIZED',
    status: 401,
    retryable: false,
    reason: 'authorization-required',
    details: { operation: 'initialize', phase: 'discovery' },
  },
  {
    label: 'request failed with 503',
    message: `Connection "${SECRET_NAME}" request failed with status 503`,
    make: () =>
      new ConnectionRequestError({
        connectionName: SECRET_NAME,
        operation: 'tools/list',
        status: 503,
        body: SECRET_BODY,
      }),
    errorClass: ConnectionRequestError,
    name: 'ConnectionRequestError',
    code: 'CONNECTION_REQUEST_FAILED',
    projectedCode: 'CONNECTION_REQUEST_FAILED',
    status: 502,
    retryable: true,
    reason: 'upstream-request-failed',
    details: { operation: 'tools/list', phase: 'discovery', upstreamStatus: 503 },
  },
  {
    label: 'request failed with 500',
    message: `Connection "${SECRET_NAME}" request failed with status 500`,
    make: () =>
      new ConnectionRequestError({ connectionName: SECRET_NAME, status: 500, body: SECRET_BODY }),
    errorClass: ConnectionRequestError,
    name: 'ConnectionRequestError',
    code: 'CONNECTION_REQUEST_FAILED',
    projectedCode: 'CONNECTION_REQUEST_FAILED',
    status: 502,
    retryable: false,
    reason: 'upstream-request-failed',
    details: { phase: 'call', upstreamStatus: 500 },
  },
  {
    label: 'request forbidden (403)',
    message: `Connection "${SECRET_NAME}" request failed with status 403`,
    make: () =>
      new ConnectionRequestError({
        connectionName: SECRET_NAME,
        operation: 'tools/call',
        status: 403,
        body: SECRET_BODY,
      }),
    errorClass: ConnectionRequestError,
    name: 'ConnectionRequestError',
    code: 'CONNECTION_REQUEST_FAILED',
    projectedCode: 'FORBIDDEN',
    status: 403,
    retryable: false,
    reason: 'permission-denied',
    details: { operation: 'tools/call', phase: 'call', upstreamStatus: 403 },
  },
  {
    label: 'request forbidden (403) with a step-up challenge',
    message: `Connection "${SECRET_NAME}" request failed with status 403`,
    make: () =>
      new ConnectionRequestError({
        connectionName: SECRET_NAME,
        operation: 'openapi/call',
        status: 403,
        body: SECRET_BODY,
        challenge: CHALLENGE,
      }),
    errorClass: ConnectionRequestError,
    name: 'ConnectionRequestError',
    code: 'CONNECTION_REQUEST_FAILED',
    projectedCode: 'FORBIDDEN',
    status: 403,
    retryable: false,
    reason: 'permission-denied',
    details: { operation: 'openapi/call', phase: 'call', upstreamStatus: 403 },
  },
  {
    label: 'url refused',
    message: `Connection "${SECRET_NAME}" refused a redirect`,
    make: () =>
      new ConnectionUrlError({
        connectionName: SECRET_NAME,
        refusal: 'refused a redirect',
        url: SECRET_URL,
      }),
    errorClass: ConnectionUrlError,
    name: 'ConnectionUrlError',
    code: 'CONNECTION_URL_REJECTED',
    projectedCode: 'BAD_REQUEST',
    status: 400,
    retryable: false,
    reason: 'url-rejected',
    details: {},
  },
  {
    label: 'redirect refused, pointing at a same-origin path',
    message: `Connection "${SECRET_NAME}" refused a redirect (status 307) to /mcp/ during tools/call`,
    make: () =>
      new ConnectionUrlError({
        connectionName: SECRET_NAME,
        operation: 'tools/call',
        refusal: 'refused a redirect (status 307) to /mcp/ during tools/call',
        url: SECRET_URL,
        redirectTo: 'https://api.example.test/mcp/?token=SECRET-QUERY-TOKEN',
      }),
    errorClass: ConnectionUrlError,
    name: 'ConnectionUrlError',
    code: 'CONNECTION_URL_REJECTED',
    projectedCode: 'BAD_REQUEST',
    status: 400,
    retryable: false,
    reason: 'url-rejected',
    details: { operation: 'tools/call', phase: 'call' },
  },
  {
    label: 'timeout',
    message: `Connection "${SECRET_NAME}" timed out after 50 ms`,
    make: () =>
      new ConnectionTimeoutError({
        connectionName: SECRET_NAME,
        operation: 'initialize',
        observedReadBytes: 7,
        timeoutMs: 50,
      }),
    errorClass: ConnectionTimeoutError,
    name: 'ConnectionTimeoutError',
    code: 'CONNECTION_TIMEOUT',
    projectedCode: 'CONNECTION_TIMEOUT',
    status: 504,
    retryable: false,
    reason: 'deadline-exceeded',
    details: { operation: 'initialize', phase: 'discovery', timeoutMs: 50, observedReadBytes: 7 },
  },
  {
    label: 'response too large',
    message: `Connection "${SECRET_NAME}" response exceeded the 64 byte limit`,
    make: () =>
      new ConnectionResponseTooLargeError({
        connectionName: SECRET_NAME,
        operation: 'tools/call',
        observedReadBytes: 65,
        maxBytes: 64,
      }),
    errorClass: ConnectionResponseTooLargeError,
    name: 'ConnectionResponseTooLargeError',
    code: 'CONNECTION_RESPONSE_TOO_LARGE',
    projectedCode: 'CONNECTION_RESPONSE_TOO_LARGE',
    status: 413,
    retryable: false,
    reason: 'response-too-large',
    details: {
      operation: 'tools/call',
      phase: 'call',
      maxResponseBytes: 64,
      observedReadBytes: 65,
    },
  },
  {
    label: 'protocol error with a JSON-RPC code',
    message: `Connection "${SECRET_NAME}" answered with MCP error: ${SECRET_BODY}`,
    make: () =>
      new ConnectionProtocolError({
        connectionName: SECRET_NAME,
        operation: 'tools/call',
        violation: `answered with MCP error: ${SECRET_BODY}`,
        rpcCode: -32602,
      }),
    errorClass: ConnectionProtocolError,
    name: 'ConnectionProtocolError',
    code: 'CONNECTION_PROTOCOL_ERROR',
    projectedCode: 'CONNECTION_PROTOCOL_ERROR',
    status: 502,
    retryable: false,
    reason: 'protocol-error',
    details: { operation: 'tools/call', phase: 'call', rpcCode: -32602 },
  },
  {
    label: 'credential refused',
    message: `Connection "${SECRET_NAME}" refused its credential: its token contains CR, LF or NUL during tools/call`,
    make: () =>
      new ConnectionCredentialError({
        connectionName: SECRET_NAME,
        operation: 'tools/call',
        problem: 'header-break',
      }),
    errorClass: ConnectionCredentialError,
    name: 'ConnectionCredentialError',
    code: 'CONNECTION_CREDENTIAL_INVALID',
    projectedCode: 'CONNECTION_CREDENTIAL_INVALID',
    status: 500,
    retryable: false,
    reason: 'credential-unusable',
    details: { problem: 'header-break', operation: 'tools/call', phase: 'call' },
  },
  {
    label: 'budget exceeded',
    message: 'Connection surface exposes 12 schema bytes, above the budget of 10',
    make: () => new ConnectionBudgetExceededError({ limit: 10, actual: 12, unit: 'schema bytes' }),
    errorClass: ConnectionBudgetExceededError,
    name: 'ConnectionBudgetExceededError',
    code: 'CONNECTION_BUDGET_EXCEEDED',
    projectedCode: 'BAD_REQUEST',
    status: 400,
    retryable: false,
    reason: 'mount-budget-exceeded',
    details: { limit: 10, actual: 12, unit: 'schema bytes' },
  },
];

const ALL_CLASSES: AnyErrorClass[] = [
  ConnectionAuthorizationRequiredError,
  ConnectionRequestError,
  ConnectionUrlError,
  ConnectionTimeoutError,
  ConnectionResponseTooLargeError,
  ConnectionProtocolError,
  ConnectionCredentialError,
  ConnectionBudgetExceededError,
];

describe.each(rows)('$label', (row) => {
  it('carries its name, stable code and its own message', () => {
    const error = row.make() as Error & { code: string };
    expect(error.message).toBe(row.message);
    expect(error.name).toBe(row.name);
    expect(error.code).toBe(row.code);
    expect(error).toBeInstanceOf(Error);
  });

  it('projects onto the safe code, status, retryability and reason', () => {
    const projected = projectToolError(row.make());
    expect(projected).toBeInstanceOf(AppError);
    expect(projected?.code).toBe(row.projectedCode);
    expect(projected?.status).toBe(row.status);
    expect(projected?.retryable).toBe(row.retryable);
    expect(projected?.details).toMatchObject({ reason: row.reason, ...row.details });
    expect(typeof projected?.details?.message).toBe('string');
  });

  it('is recognised by instanceof and isInstance, and only by its own class', () => {
    const error = row.make();
    for (const other of ALL_CLASSES) {
      const expected = other === row.errorClass;
      expect(error instanceof other).toBe(expected);
      expect(other.isInstance(error)).toBe(expected);
    }
  });

  it('is a ConnectionError', () => {
    const error = row.make();
    expect(error instanceof ConnectionError).toBe(true);
    expect(ConnectionError.isInstance(error)).toBe(true);
  });

  it('recognises an instance from a second copy of the package by its registered brand', () => {
    const foreign = { [Symbol.for(`stitchkit-transport.error.${row.code}`)]: true };
    expect(foreign instanceof row.errorClass).toBe(true);
    expect(row.errorClass.isInstance(foreign)).toBe(true);
    expect(row.errorClass.isInstance({})).toBe(false);
    expect(row.errorClass.isInstance(null)).toBe(false);
    expect(new Error('plain') instanceof row.errorClass).toBe(false);
  });

  it('keeps the connection name, URL, body and bearer out of the projected JSON', () => {
    const projected = projectToolError(row.make());
    const json = JSON.stringify({
      code: projected?.code,
      message: projected?.message,
      details: projected?.details,
      hint: projected?.hint,
    });
    for (const marker of MARKERS) expect(json).not.toContain(marker);
  });
});

describe('the authorization challenge', () => {
  const scope = { connectionName: SECRET_NAME, operation: 'tools/call' } as const;
  const pairs = [
    [
      '401',
      new ConnectionAuthorizationRequiredError({ ...scope, challenge: CHALLENGE }),
      new ConnectionAuthorizationRequiredError(scope),
    ],
    [
      '403',
      new ConnectionRequestError({ ...scope, status: 403, body: '', challenge: CHALLENGE }),
      new ConnectionRequestError({ ...scope, status: 403, body: '' }),
    ],
  ] as const;

  it.each(pairs)('is kept raw on the %s for the host', (_status, withChallenge, without) => {
    expect(withChallenge.challenge).toEqual(CHALLENGE);
    expect(without.challenge).toBeUndefined();
  });

  it.each(pairs)('does not change the %s projection at all', (_status, withChallenge, without) => {
    expect(projectToolError(withChallenge)).toEqual(projectToolError(without));
    expect(withChallenge.message).toBe(without.message);
  });

  it.each(pairs)(
    'never reaches the envelope or AgentToolError text of the %s',
    (_status, withChallenge) => {
      const failure = toolResultFromError(withChallenge);
      const agentError = agentToolErrorFromResult(failure);
      expect(agentError.cause).toBe(withChallenge);
      const modelFacing =
        JSON.stringify({ failure, output: agentError.output }) + agentError.message;
      for (const marker of MARKERS) expect(modelFacing).not.toContain(marker);
    },
  );
});

describe('ConnectionRequestError body', () => {
  it('keeps at most 512 characters of the upstream body', () => {
    const error = new ConnectionRequestError({
      connectionName: 'c',
      status: 500,
      body: 'x'.repeat(2000),
    });
    expect(MAX_ERROR_BODY_CHARS).toBe(512);
    expect(error.body).toHaveLength(512);
  });

  it('keeps a short body as is for host hooks', () => {
    expect(
      new ConnectionRequestError({ connectionName: 'c', status: 500, body: SECRET_BODY }).body,
    ).toBe(SECRET_BODY);
  });
});

describe('ConnectionUrlError url field', () => {
  it('stores the URL redacted to origin and path', () => {
    const error = new ConnectionUrlError({
      connectionName: 'c',
      refusal: 'refused',
      url: SECRET_URL,
    });
    expect(error.url).toBe('https://api.example.test/mcp');
  });

  it('stores nothing when no URL is given', () => {
    const error = new ConnectionUrlError({ connectionName: 'c', refusal: 'refused' });
    expect(error.url).toBeUndefined();
    expect(error.redirectTo).toBeUndefined();
  });

  it('stores a redirect target redacted to origin and path', () => {
    const error = new ConnectionUrlError({
      connectionName: 'c',
      refusal: 'refused a redirect',
      url: SECRET_URL,
      redirectTo: 'https://user:pw@api.example.test/mcp/?token=SECRET-QUERY-TOKEN#frag',
    });
    expect(error.redirectTo).toBe('https://api.example.test/mcp/');
  });
});

describe('failure context defaults', () => {
  it('defaults to phase call and 0 observed bytes without an operation', () => {
    const error = new ConnectionTimeoutError({ connectionName: 'c', timeoutMs: 10 });
    expect(error.operation).toBeUndefined();
    expect(error.phase).toBe('call');
    expect(error.observedReadBytes).toBe(0);
  });

  it('derives the phase from the operation when none is given', () => {
    expect(
      new ConnectionTimeoutError({ connectionName: 'c', operation: 'endpoint', timeoutMs: 10 })
        .phase,
    ).toBe('discovery');
  });

  it('keeps an explicit phase over the derived one', () => {
    const error = new ConnectionResponseTooLargeError({
      connectionName: 'c',
      operation: 'initialize',
      phase: 'call',
      maxBytes: 10,
    });
    expect(error.phase).toBe('call');
  });

  it('keeps the standard cause', () => {
    const cause = new Error('inner');
    expect(
      new ConnectionProtocolError({ connectionName: 'c', violation: 'bad', cause }).cause,
    ).toBe(cause);
  });

  it('has the authorization hint on the projection', () => {
    expect(
      projectToolError(new ConnectionAuthorizationRequiredError({ connectionName: 'c' }))?.hint,
    ).toBe('Obtain a new credential before retrying.');
  });
});

describe('ConnectionTaskError', () => {
  const scope = { connectionName: 'jobs', operation: 'tasks/get' as const };

  it('names the task, why it ended and the last status; the model sees why, never the server words', () => {
    const failed = new ConnectionTaskError({
      ...scope,
      end: 'failed',
      taskId: 't-1',
      status: 'failed',
      statusMessage: 'disk full on node 7',
      rpcCode: -32603,
      rpcMessage: 'job crashed',
      rpcData: { step: 3 },
    });
    expect(failed.message).toBe(
      'Connection "jobs" task t-1 failed on the server: -32603 job crashed, last seen failed during tasks/get',
    );
    expect(failed).toMatchObject({
      code: 'CONNECTION_TASK_FAILED',
      phase: 'call',
      rpcData: { step: 3 },
    });
    const projected = projectToolError(failed);
    expect(projected).toMatchObject({
      code: 'CONNECTION_TASK_FAILED',
      status: 502,
      retryable: false,
    });
    expect(projected?.details).toEqual({
      message: "The tool's task failed on the server.",
      reason: 'task-failed',
      status: 'failed',
      rpcCode: -32603,
      operation: 'tasks/get',
      phase: 'call',
    });
    expect(JSON.stringify(projected)).not.toContain('disk full');
    expect(JSON.stringify(projected)).not.toContain('t-1');
  });

  it.each([
    ['timeout', 504, 'ran past its deadline (600000 ms)'],
    ['expired', 504, 'outlived its ttlMs (600000 ms)'],
    ['lost', 502, 'is no longer known to the server'],
    ['cancelled', 502, 'was cancelled by the server'],
  ] as const)('ends %s with status %d and says so', (end, status, said) => {
    const error = new ConnectionTaskError({
      ...scope,
      end,
      taskId: 't-2',
      status: 'working',
      ...(end === 'timeout' || end === 'expired' ? { timeoutMs: 600_000 } : {}),
    });
    expect(error.message).toBe(
      `Connection "jobs" task t-2 ${said}, last seen working during tasks/get`,
    );
    expect(projectToolError(error)).toMatchObject({ status, details: { reason: `task-${end}` } });
  });

  it('keeps at most 512 characters of the server words', () => {
    const error = new ConnectionTaskError({
      ...scope,
      end: 'failed',
      taskId: 't-3',
      status: 'failed',
      statusMessage: 'x'.repeat(2_000),
      rpcCode: -32603,
      rpcMessage: 'y'.repeat(2_000),
    });
    expect([error.statusMessage?.length, error.rpcMessage?.length]).toEqual([512, 512]);
  });
});
