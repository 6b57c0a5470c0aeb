import { describe, expect, it } from 'vitest';
import { AppError, projectToolError } from '../../../src/binding/kernel/app-error.js';
import {
  DownloadError,
  type DownloadErrorFields,
} from '../../../src/wire/download/download-error.js';

describe('DownloadError', () => {
  it.each<[DownloadErrorFields, number, string, boolean]>([
    [{ code: 'DOWNLOAD_NOT_FOUND' }, 404, 'Nothing to download', false],
    [
      { code: 'DOWNLOAD_INVALID_URL', detail: 'only http and https' },
      400,
      'The download URL is not usable (only http and https)',
      false,
    ],
    [
      { code: 'DOWNLOAD_HOST_REFUSED', refusal: 'loopback', host: '127.0.0.1:8080' },
      403,
      'The download address is not allowed',
      false,
    ],
    [
      { code: 'DOWNLOAD_REDIRECT_REFUSED', detail: 'more than 5 redirects' },
      502,
      'The download redirect was refused (more than 5 redirects)',
      false,
    ],
    [{ code: 'DOWNLOAD_HTTP_ERROR', upstreamStatus: 404 }, 502, 'HTTP 404', false],
    [{ code: 'DOWNLOAD_HTTP_ERROR', upstreamStatus: 503 }, 502, 'HTTP 503', true],
    [{ code: 'DOWNLOAD_TOO_LARGE', maxBytes: 10 }, 413, 'The file exceeds the 10-byte cap', false],
    [
      { code: 'DOWNLOAD_TIMEOUT', deadline: 'body', timeoutMs: 5 },
      504,
      'The download body did not arrive within 5 ms',
      false,
    ],
    [
      { code: 'DOWNLOAD_FAILED', host: 'files.example.com' },
      502,
      'The download could not be completed',
      true,
    ],
  ])('%j projects to status %i, message %j, retryable %s', (fields, status, message, retryable) => {
    const error = new DownloadError(fields);
    expect(error).toMatchObject({ name: 'DownloadError', code: fields.code, status, message });
    const projected = projectToolError(error);
    expect(projected).toBeInstanceOf(AppError);
    expect(projected).toMatchObject({ code: fields.code, status, message, retryable });
    expect(JSON.stringify(projected?.details)).not.toMatch(/127\.0\.0\.1|example\.com/);
  });
});
