import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from './test-support/cli-process.ts';

describe('flow-studio run with FLOW_PLATFORM_API_URL at something that is not a platform', () => {
  it('fails at once when discovery answers 200 with a web page, saying it is not JSON and asking whether the URL is right', async () => {
    // A web server at the wrong address: 200 and HTML for every path.
    const paths: string[] = [];
    const web = createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome to nginx!</body></html>');
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    try {
      // A budget long enough for several retries, had waiting been worth it.
      const { code, output } = await runCli(['run', 'examples/json-api'], { env: { FLOW_PLATFORM_API_URL: url, FLOW_PLATFORM_API_DISCOVERY_BUDGET: '3s' } });
      expect(code).toBe(1);
      expect(output).toContain(`flow-studio run: discovery at ${url}: platform GET /v1/discovery answered 200: <html><body>Welcome to nginx!</body></html>`);
      expect(output).toContain("(text/html, not JSON: is FLOW_PLATFORM_API_URL the platform server's address?)");
      expect(paths).toEqual(['/v1/discovery']);
    } finally {
      web.close();
    }
  }, 30_000);
});
