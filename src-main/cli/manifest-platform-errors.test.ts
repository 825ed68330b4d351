import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli, type CliRun } from './test-support/cli-process.ts';

const manifest = (platform: string): Promise<CliRun> => runCli(['manifest', '--platform', platform, '--deployment', 'orders-prod']);

describe('flow-studio manifest against a platform that is not there', () => {
  it('names the address and the reason when nothing listens, a web page answers, or the URL carries a password', async () => {
    const web = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Welcome to nginx!</html>'));
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    const webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    // A port that was free a moment ago: nothing listens there.
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, '127.0.0.1', r));
    const goneUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
    await new Promise((r) => gone.close(r));
    try {
      const down = await manifest(goneUrl);
      expect(down.code).toBe(1);
      expect(down.stderr).toContain(`flow-studio manifest: GET ${goneUrl}/deployments/orders-prod could not be reached: connect ECONNREFUSED`);

      const page = await manifest(webUrl);
      expect(page.code).toBe(1);
      expect(page.stderr).toContain(`GET ${webUrl}/deployments/orders-prod answered 200 with text/html, not JSON: is --platform the platform's address?`);

      const withPassword = await manifest(webUrl.replace('//', '//ops:hunter2-4d3c2b1a@'));
      expect(withPassword.code).toBe(2);
      expect(withPassword.stderr).toContain('--platform carries credentials');
      expect(withPassword.stdout + withPassword.stderr).not.toContain('hunter2-4d3c2b1a');
    } finally {
      web.close();
    }
  }, 40_000);
});
