import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from './test-support/cli-process.ts';

const PASSWORD = 'hunter2-9f8e7d6c';

describe('flow-studio run with credentials in FLOW_PLATFORM_API_URL', () => {
  it('refuses the start, saying they are never sent, and prints the password nowhere', async () => {
    // A gateway in front of the platform that would log what the runtime sends it.
    const seen: IncomingHttpHeaders[] = [];
    const gateway = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"code":"unauthorized","message":"who are you"}}');
    });
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
    const port = (gateway.address() as AddressInfo).port;
    try {
      const { code, output } = await runCli(['run', 'examples/json-api'], {
        env: { FLOW_PLATFORM_API_URL: `http://ops:${PASSWORD}@127.0.0.1:${port}/`, FLOW_PLATFORM_API_DISCOVERY_BUDGET: '2s' },
      });
      expect(code).toBe(1);
      expect(output).toContain('flow-studio run: FLOW_PLATFORM_API_URL carries credentials (http://***:***@127.0.0.1:');
      expect(output).toContain('FLOW_PLATFORM_API_HEADERS');
      expect(output).not.toContain(PASSWORD);
      // Refused before any call: nothing reached the gateway (before, calls went without the credentials).
      expect(seen).toEqual([]);
    } finally {
      gateway.close();
    }
  }, 30_000);
});
