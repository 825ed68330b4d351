import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startPinned, type Started } from './pinned-process.ts';

/** Builds (once, cached) or finds Benthos with .ci/benthos.sh; rejects saying why when it cannot (no Go). */
export function buildBenthos(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', [join('.ci', 'benthos.sh'), 'build'], { timeout: 20 * 60_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(stderr.trim().split('\n').pop() || err.message));
      resolve(stdout.trim());
    });
  });
}

/** Benthos doing what the flow does: http_server → mapping → sync_response, admin server off. */
export async function startBenthos(bin: string, dir: string, core: number): Promise<Started> {
  const port = await freePort();
  const config = join(dir, 'benthos.yaml');
  writeFileSync(
    config,
    `http:
  enabled: false
input:
  http_server:
    address: 127.0.0.1:${port}
    path: /orders
    allowed_verbs: [POST]
    sync_response:
      headers:
        Content-Type: application/json
pipeline:
  processors:
    - mapping: |
        root.id = this.id
        root.customer = this.customer
        root.total = this.price * this.qty
output:
  sync_response: {}
logger:
  level: INFO
`,
  );
  const started = await startPinned(core, bin, ['-c', config], process.env, /(Receiving HTTP messages)/);
  return { ...started, url: `http://127.0.0.1:${port}` };
}

