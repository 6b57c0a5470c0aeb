/**
 * The I/O seam of the `download` machine: the application's URL resolution, and one `transfer`
 * actor that holds the response between the head and the body (handles never sit in context).
 * The machine judges the head and then tells the actor where to write.
 */
import { fromCallback, fromPromise } from 'xstate';
import { DownloadError } from '../../wire/download/download-error.js';
import type { DownloadResponse } from '../../wire/download/download-fetch.js';
import { cancelBody, type NodeBody } from '../../wire/read/abortable-read.js';
import { mediaTypeEssence } from '../../wire/read/media-type.js';
import { declaredBytesOf } from './download.policy.js';
import type {
  DownloadContext,
  DownloadEvent,
  DownloadedFile,
  DownloadTransferInput,
  DownloadWriteCommand,
} from './download.types.js';

/** What the write dependency receives besides the path and the body. */
export interface DownloadWriteOptions {
  /** Byte cap enforced while writing. */
  readonly maxBytes: number;
  /** The media type to report. */
  readonly mediaType: string;
  /** Aborted when the machine leaves the transfer (deadline, cancellation, failure). */
  readonly signal: AbortSignal;
  /** Called with the running byte total after each chunk. */
  readonly onBytes: (totalBytes: number) => void;
}

/** Dependencies of the `download` actors. */
export interface DownloadActorDependencies {
  /** The application's URL resolution; `null` or `undefined` means nothing to download. */
  resolveUrl(context: { readonly signal: AbortSignal }): unknown;
  /** The guarded fetch of one URL (the wire's `fetchForDownload`, bound to its options). */
  fetch(url: string, signal: AbortSignal): Promise<DownloadResponse>;
  /** Streams the body into the file boundary. */
  write(path: string, body: NodeBody, options: DownloadWriteOptions): Promise<DownloadedFile>;
  /** Told the running byte total and the declared length as the body arrives. */
  onBytes?(receivedBytes: number, declaredBytes: number | null): void;
  /** Handed every fetch and write, so a caller can wait until a stopped transfer cleaned up. */
  track?(work: Promise<unknown>): void;
}

const STOPPED = 'the download machine left the transfer';

/** Builds the `download` machine's actors; pass to `machine.provide`. */
export function makeDownloadActors(deps: DownloadActorDependencies) {
  return {
    resolveUrl: fromPromise<unknown, void>(async ({ signal }) => deps.resolveUrl({ signal })),
    transfer: fromCallback<DownloadWriteCommand, DownloadTransferInput>(
      ({ input, sendBack, receive }) => {
        const controller = new AbortController();
        let stopped = false;
        let response: DownloadResponse | undefined;
        let writing = false;
        const report = (event: DownloadEvent): void => {
          if (!stopped) sendBack(event);
        };
        const fetching = deps.fetch(input.url, controller.signal).then(
          (answer) => {
            response = answer;
            report({
              type: 'HEADERS',
              head: {
                status: answer.status,
                declaredBytes: declaredBytesOf(answer.headers.get('content-length')),
                mediaType: mediaTypeEssence(answer.headers.get('content-type')),
                urlPath: answer.url.pathname,
              },
            });
            if (stopped) release(answer);
          },
          (error: unknown) => report({ type: 'TRANSFER_FAILED', error }),
        );
        deps.track?.(fetching);
        receive((command) => {
          const answer = response;
          if (answer === undefined || writing) return;
          writing = true;
          const declared = declaredBytesOf(answer.headers.get('content-length'));
          let received = 0;
          const work = deps
            .write(command.path, answer.body, {
              maxBytes: command.maxBytes,
              mediaType: command.mediaType,
              signal: controller.signal,
              onBytes: (total) => {
                received = total;
                deps.onBytes?.(total, declared);
              },
            })
            .then(
              (file) => report({ type: 'WRITTEN', file }),
              (error: unknown) =>
                report({
                  type: 'TRANSFER_FAILED',
                  // The streamed size crossed the cap: the download's refusal, not the file's.
                  error:
                    received > command.maxBytes
                      ? new DownloadError({
                          code: 'DOWNLOAD_TOO_LARGE',
                          maxBytes: command.maxBytes,
                          cause: error,
                        })
                      : error,
                }),
            )
            .finally(() => answer.release());
          deps.track?.(work);
        });
        return () => {
          stopped = true;
          controller.abort(new Error(STOPPED));
          if (response !== undefined && !writing) release(response);
        };
      },
    ),
  };
}

function release(response: DownloadResponse): void {
  cancelBody(response);
  response.release();
}

/** The input of the `transfer` actor: the resolved URL. */
export function transferInput({ context }: { readonly context: DownloadContext }) {
  return { url: context.url ?? '' };
}

/** The default actors: they fail, because a download without its dependencies is a bug. */
export const missingDownloadActors = {
  resolveUrl: fromPromise<unknown, void>(async () => {
    throw new Error('The download machine needs its actors: provide makeDownloadActors(deps)');
  }),
  transfer: fromCallback<DownloadWriteCommand, DownloadTransferInput>(({ sendBack }) => {
    sendBack({
      type: 'TRANSFER_FAILED',
      error: new Error('The download machine needs its actors: provide makeDownloadActors(deps)'),
    });
  }),
};
