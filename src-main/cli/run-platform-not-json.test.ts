import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';

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
    const env: Record<string, string | undefined> = { ...process.env };
    for (const k of Object.keys(env)) if (k.startsWith('FLOW_') || k === 'RUNTIME_SERVICES_MODULE') delete env[k];
    const child = spawn(process.execPath, ['bin/flow-studio.js', 'run', 'examples/json-api'], {
      cwd: process.cwd(),
      // A budget long enough for several retries, had waiting been worth it.
      env: { ...env, FLOW_PLATFORM_API_URL: url, FLOW_PLATFORM_API_DISCOVERY_BUDGET: '3s' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    try {
      // 'close': both pipes have been read to their end.
      const code = await new Promise<number | null>((r) => child.once('close', r));
      expect(code).toBe(1);
      expect(output).toContain(`flow-studio run: discovery at ${url}: platform GET /v1/discovery answered 200: <html><body>Welcome to nginx!</body></html>`);
      expect(output).toContain("(text/html, not JSON: is FLOW_PLATFORM_API_URL the platform server's address?)");
      expect(paths).toEqual(['/v1/discovery']);
    } finally {
      child.kill('SIGKILL');
      web.close();
    }
  }, 30_000);
});
