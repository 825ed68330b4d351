import { execFile } from 'node:child_process';

export interface CurlResult {
  status: number;
  headers: string;
  body: string;
}

/** Runs curl against a local server; `-s -i` output is split into status, headers and body. */
export function curl(args: string[], timeoutMs = 10_000): Promise<CurlResult> {
  return new Promise((resolve, reject) => {
    const child = execFile('curl', ['-s', '-i', '--max-time', String(timeoutMs / 1000), ...args], { maxBuffer: 64 << 20 }, (err, stdout) => {
      // curl exits 28 when --max-time cuts a stream we meant to read only partly.
      if (err && (err as { code?: number }).code !== 28) return reject(err);
      const blocks = stdout.split('\r\n\r\n');
      // Skip interim responses such as `100 Continue`.
      while (blocks.length > 1 && /^HTTP\/\S+ 1\d\d/.test(blocks[0])) blocks.shift();
      const head = blocks.shift() ?? '';
      const status = Number(/^HTTP\/\S+ (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, headers: head, body: blocks.join('\r\n\r\n') });
    });
    // Nothing is piped in; an open stdin would make `@-` arguments wait forever.
    child.stdin?.end();
  });
}
