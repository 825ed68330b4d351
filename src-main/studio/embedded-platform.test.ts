import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../shared/feed-events.ts';
import { startEmbeddedPlatform } from './embedded-platform.ts';
import { LiveFeed } from './live-feed.ts';

describe('the embedded platform', () => {
  it('listens on 127.0.0.1 behind a per-launch token, and its KV and queue traffic reaches the live feed without values', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-platform-'));
    const platform = await startEmbeddedPlatform({ dataDir });
    const feed = new LiveFeed({ flushMs: 10 });
    feed.addSource(platform.feedSource);
    const events: FeedEvent[] = [];
    feed.subscribe((b) => events.push(...b.events));
    try {
      expect(platform.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const denied = await fetch(`${platform.url}/v1/kv/user/entry?key=a`, { method: 'PUT', body: 'secret-value' });
      expect(denied.status).toBe(401);
      const auth = { authorization: `Bearer ${platform.token}` };
      const put = await fetch(`${platform.url}/v1/kv/user/entry?key=orders%2F1`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/octet-stream' }, body: 'secret-value' });
      expect(put.status).toBeLessThan(300);
      const published = await fetch(`${platform.url}/v1/queues/orders/publish`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"body": {"id": 1}}' });
      expect(published.status).toBeLessThan(300);
      for (const deadline = Date.now() + 10_000; events.length < 2 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));
      expect(events).toEqual([
        expect.objectContaining({ kind: 'kv', namespace: 'user', key: 'orders/1', action: 'put' }),
        expect.objectContaining({ kind: 'queue', subject: 'orders', action: 'publish' }),
      ]);
      expect(JSON.stringify(events[0])).not.toContain('secret-value');
    } finally {
      feed.close();
      await platform.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
