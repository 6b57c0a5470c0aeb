import { describe, expect, it } from 'vitest';
import { WaitTimeoutError } from '../../../src/machines/wait/wait.timeout-error.js';

describe('WaitTimeoutError', () => {
  it('names itself, says no snapshot came by default, and keeps a given message', () => {
    const error = new WaitTimeoutError(5_000);
    expect({ name: error.name, message: error.message, code: error.code }).toEqual({
      name: 'WaitTimeoutError',
      message: 'Wait timed out before the first snapshot',
      code: 'WAIT_TIMEOUT',
    });
    expect(error.timeoutMs).toBe(5_000);
    expect(new WaitTimeoutError(5_000, { message: 'still pending' }).message).toBe('still pending');
  });
});
