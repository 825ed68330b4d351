import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatformServer, type PlatformServer, type PlatformServerOptions } from '../server.ts';

/** An answer from the platform, read once. */
export interface Answer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  /** The parsed JSON body (undefined when empty). */
  json: unknown;
  /** `error.code` and `error.message` of an error body. */
  code: string | undefined;
  message: string | undefined;
  ms: number;
}

export interface CallOptions {
  json?: unknown;
  body?: Buffer | string;
  headers?: Record<string, string>;
}

export type Call = (method: string, path: string, options?: CallOptions) => Promise<Answer>;

export interface TestPlatform {
  server: PlatformServer;
  url: string;
  dataDir: string;
  /** Calls the server over real HTTP with its bearer token. */
  call: Call;
  close(): Promise<void>;
}

/** Starts a platform server on 127.0.0.1 in a fresh temporary data directory. */
export async function startTestPlatform(options: Partial<PlatformServerOptions> = {}): Promise<TestPlatform> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'flow-platform-test-'));
  const server = await startPlatformServer({ ...options, dataDir });
  const call = httpCaller(server.url, server.token);
  return {
    server,
    url: server.url,
    dataDir,
    call,
    async close() {
      await server.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function httpCaller(url: string, token: string | undefined): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...options.headers };
    let body: Buffer | string | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    const started = performance.now();
    const res = await fetch(url + path, { method, headers, body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body) });
    const bytes = Buffer.from(await res.arrayBuffer());
    const ms = performance.now() - started;
    const text = bytes.toString('utf8');
    let json: unknown;
    if ((res.headers.get('content-type') ?? '').startsWith('application/json') && text) json = JSON.parse(text);
    const error = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
    return { status: res.status, headers: res.headers, bytes, text, json, code: error?.code, message: error?.message, ms };
  };
}

/** Percent-encodes a path segment, e.g. a subject with a slash. */
export const seg = encodeURIComponent;
