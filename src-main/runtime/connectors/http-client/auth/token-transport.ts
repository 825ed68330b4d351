import type { Dispatcher } from 'undici';

export interface TokenResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** How token strategies reach token endpoints and metadata servers: the connector's own pool. */
export type TokenTransport = (
  url: URL,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
) => Promise<TokenResponse>;

/** Token responses are small; anything bigger is not a token response. */
const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

export function tokenTransport(dispatcher: Dispatcher, timeoutMs: number): TokenTransport {
  return async (url, init) => {
    const signal = AbortSignal.timeout(timeoutMs);
    const res = await dispatcher.request({ origin: url.origin, path: url.pathname + url.search, method: init.method, headers: init.headers, body: init.body, signal });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_TOKEN_RESPONSE_BYTES) throw new Error(`the response is larger than ${MAX_TOKEN_RESPONSE_BYTES} bytes`);
      chunks.push(chunk);
    }
    return { status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') };
  };
}

/** Where a token came from, for errors: no query string, no user info. */
export function endpointLabel(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

export function headerValue(headers: TokenResponse['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
