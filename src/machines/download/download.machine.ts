/**
 * `download` (ADR 0081): resolve the URL, fetch it through the guarded fetch, judge the head,
 * then stream the body into the file boundary.
 *
 * The header deadline is an absolute time in context: it spans resolving the URL and waiting for
 * the final response's headers (every redirect hop included). The body deadline starts when the
 * head passed its checks. Leaving `transferring` stops the `transfer` actor, which aborts the
 * fetch or the write, and the boundary then removes its temporary file.
 */
import { assign, sendTo, setup } from 'xstate';
import { DownloadError } from '../../wire/download/download-error.js';
import { errorOf, reasonOf, runFailureActions } from '../connection-outcomes.js';
import { remainingMs } from '../deadline.js';
import { missingDownloadActors, transferInput } from './download.actors.js';
import { downloadGuards } from './download.guards.js';
import {
  DEFAULT_DOWNLOAD_BODY_TIMEOUT_MS,
  DEFAULT_DOWNLOAD_HEADER_TIMEOUT_MS,
  DEFAULT_DOWNLOAD_MAX_BYTES,
  downloadTarget,
} from './download.policy.js';
import type {
  DownloadContext,
  DownloadEvent,
  DownloadedFile,
  DownloadHead,
  DownloadMachineInput,
  DownloadMachineOutput,
} from './download.types.js';

const headOf = ({ event }: { readonly event: { readonly head: DownloadHead } }) => ({
  head: event.head,
});

/** `download`'s setup: every implementation by name. */
export const downloadSetup = setup({
  types: {} as {
    input: DownloadMachineInput;
    context: DownloadContext;
    events: DownloadEvent;
    output: DownloadMachineOutput;
  },
  actors: missingDownloadActors,
  actions: {
    ...runFailureActions<DownloadContext, DownloadEvent>(),
    assignUrl: assign((_, params: { url: string }) => ({ url: params.url })),
    assignTarget: assign(({ context }, params: { head: DownloadHead }) => ({
      target: downloadTarget(params.head, context.requestedPath),
    })),
    startWriting: sendTo('transfer', ({ context }) => ({
      type: 'WRITE' as const,
      path: context.target?.path ?? '',
      mediaType: context.target?.mediaType ?? '',
      maxBytes: context.maxBytes,
    })),
    succeed: assign((_, params: { file: DownloadedFile }) => ({
      outcome: { ok: true, file: params.file } as const,
    })),
    failNotFound: assign(() => ({
      outcome: { ok: false, error: new DownloadError({ code: 'DOWNLOAD_NOT_FOUND' }) } as const,
    })),
    failHttpStatus: assign((_, params: { head: DownloadHead }) => ({
      outcome: {
        ok: false,
        error: new DownloadError({
          code: 'DOWNLOAD_HTTP_ERROR',
          upstreamStatus: params.head.status,
        }),
      } as const,
    })),
    failTooLarge: assign(({ context }) => ({
      outcome: {
        ok: false,
        error: new DownloadError({ code: 'DOWNLOAD_TOO_LARGE', maxBytes: context.maxBytes }),
      } as const,
    })),
    failTimeout: assign(({ context }, params: { deadline: 'headers' | 'body' }) => ({
      outcome: {
        ok: false,
        error: new DownloadError({
          code: 'DOWNLOAD_TIMEOUT',
          deadline: params.deadline,
          timeoutMs: params.deadline === 'body' ? context.bodyTimeoutMs : context.headerTimeoutMs,
        }),
      } as const,
    })),
    // The download holds no handle of its own: leaving `transferring` stops the transfer actor
    // (fetch and write aborted) and cancels the timers. The named hook keeps the invariant.
    teardown: () => {},
  },
  guards: downloadGuards,
  delays: {
    HEADER_DEADLINE: ({ context }) => remainingMs(context.headerDeadlineAt, Date.now()),
    BODY_DEADLINE: ({ context }) => context.bodyTimeoutMs,
  },
});

/** The `download` machine; provide its actors with `makeDownloadActors`. */
export const downloadMachine = downloadSetup.createMachine({
  id: 'download',
  context: ({ input }) => {
    const startedAt = input.startedAt ?? Date.now();
    const headerTimeoutMs = input.headerTimeoutMs ?? DEFAULT_DOWNLOAD_HEADER_TIMEOUT_MS;
    return {
      requestedPath: input.requestedPath,
      maxBytes: input.maxBytes ?? DEFAULT_DOWNLOAD_MAX_BYTES,
      headerTimeoutMs,
      bodyTimeoutMs: input.bodyTimeoutMs ?? DEFAULT_DOWNLOAD_BODY_TIMEOUT_MS,
      headerDeadlineAt: startedAt + headerTimeoutMs,
      url: undefined,
      target: undefined,
      outcome: undefined,
    };
  },
  initial: 'resolving',
  // The caller's abort, from any state: the outcome is its exact reason.
  on: { CANCEL: { target: '.closed', actions: { type: 'failCancelled', params: reasonOf } } },
  states: {
    // Ask the application for the URL; nothing is fetched for a null answer.
    resolving: {
      meta: { operation: 'resolve' },
      invoke: {
        id: 'resolveUrl',
        src: 'resolveUrl',
        onDone: [
          {
            guard: { type: 'hasUrl', params: ({ event }) => ({ url: event.output }) },
            target: 'transferring',
            actions: { type: 'assignUrl', params: ({ event }) => ({ url: String(event.output) }) },
          },
          { target: 'closed', actions: 'failNotFound' },
        ],
        onError: {
          target: 'closed',
          actions: { type: 'failWithError', params: errorOf },
        },
      },
      after: {
        HEADER_DEADLINE: {
          target: 'closed',
          actions: { type: 'failTimeout', params: { deadline: 'headers' } },
        },
      },
    },
    // One transfer actor holds the response from its head to the end of its body.
    transferring: {
      invoke: { id: 'transfer', src: 'transfer', input: transferInput },
      initial: 'awaitingHeaders',
      states: {
        // The guarded fetch checks, resolves, connects and follows redirects until a final head.
        awaitingHeaders: {
          meta: { operation: 'fetch' },
          after: {
            HEADER_DEADLINE: {
              target: '#download.closed',
              actions: { type: 'failTimeout', params: { deadline: 'headers' } },
            },
          },
          on: {
            HEADERS: [
              {
                guard: {
                  type: 'isErrorStatus',
                  params: ({ event }) => ({ status: event.head.status }),
                },
                target: '#download.closed',
                actions: { type: 'failHttpStatus', params: headOf },
              },
              {
                guard: {
                  type: 'isDeclaredTooLarge',
                  params: ({ context, event }) => ({
                    declaredBytes: event.head.declaredBytes,
                    maxBytes: context.maxBytes,
                  }),
                },
                target: '#download.closed',
                actions: 'failTooLarge',
              },
              {
                target: 'receivingBody',
                actions: { type: 'assignTarget', params: headOf },
              },
            ],
          },
        },
        // Stream the body into the boundary under the body deadline; the cap holds while writing.
        receivingBody: {
          meta: { operation: 'write' },
          entry: 'startWriting',
          after: {
            BODY_DEADLINE: {
              target: '#download.closed',
              actions: { type: 'failTimeout', params: { deadline: 'body' } },
            },
          },
          on: {
            WRITTEN: {
              target: '#download.closed',
              actions: { type: 'succeed', params: ({ event }) => ({ file: event.file }) },
            },
          },
        },
      },
      on: {
        TRANSFER_FAILED: {
          target: 'closed',
          actions: { type: 'failWithError', params: errorOf },
        },
      },
    },
    // Final: the outcome was decided on the edge into it.
    closed: { type: 'final', entry: 'teardown' },
  },
  output: ({ context }) =>
    context.outcome ?? {
      ok: false,
      error: new Error('download reached its final state without an outcome'),
    },
});
