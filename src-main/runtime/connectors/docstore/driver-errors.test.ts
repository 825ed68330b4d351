import { describe, expect, it } from 'vitest';
import { startupFailure } from './driver-errors.ts';

const at = { maskedUri: 'mongodb://app:****@127.0.0.1:1/shop', user: 'app', timeoutMs: 1000 };
const scrub = (t: string) => t.split('s3cret').join('****');

describe('a docstore start check that timed out', () => {
  it('says why the driver could not reach the server when the connector’s own deadline ended the wait first', () => {
    const deadline = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:1 (user app:s3cret)');
    const message = startupFailure(deadline, at, scrub, true, refused);
    expect(message).toBe(
      'could not reach the server at mongodb://app:****@127.0.0.1:1/shop within 1s (The operation was aborted due to timeout; last attempt: connect ECONNREFUSED 127.0.0.1:1 (user app:****)); check the host and port in uri, or set verifyOnStart: false to start without the check',
    );
  });

  it('gives the deadline alone when the driver never reported a failed attempt', () => {
    const deadline = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(startupFailure(deadline, at, scrub)).toContain('within 1s (The operation was aborted due to timeout); check');
  });
});
