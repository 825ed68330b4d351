import { connect } from 'node:net';

/** What a raw-socket client saw: the status line's code, the answer's body, and whether the server closed. */
export interface RawAnswer {
  status?: number;
  headers: string;
  body: string;
  /** A socket error (ECONNRESET, EPIPE…) or a missing answer. */
  error?: string;
  /** Milliseconds from the first byte written to the whole answer read. */
  ms: number;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/**
 * Sends the headers of a request announcing `bytes` of body (by Content-Length, or chunked when
 * `chunked`) and, when `sendBody`, all of the body before reading anything, as simple clients do (64 KiB writes, a pause every MiB, 5 ms
 * unless `pauseEveryMiBMs` says, so a server that answers and closes mid-upload does so while
 * the client is still writing; a longer pause plays a slow link).
 * Resolves once the answer is read in full (by its Content-Length), the socket closes, or
 * `timeoutMs` passes.
 */
export function rawUpload(url: string, method: string, bytes: number, options: { sendBody: boolean; chunked?: boolean; headers?: string; timeoutMs?: number; pauseEveryMiBMs?: number }): Promise<RawAnswer> {
  const u = new URL(url);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(Number(u.port), u.hostname);
    let text = '';
    let error: string | undefined;
    let reading = false;
    const finish = (why?: string): void => {
      clearTimeout(deadline);
      socket.destroy();
      const head = text.indexOf('\r\n\r\n');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      resolve({
        status: status === undefined ? undefined : Number(status),
        headers: head === -1 ? text : text.slice(0, head),
        body: head === -1 ? '' : text.slice(head + 4),
        error: status === undefined ? (why ?? error ?? 'closed without an answer') : undefined,
        ms: Date.now() - started,
      });
    };
    const deadline = setTimeout(() => finish(`no complete answer within ${options.timeoutMs ?? 15_000} ms`), options.timeoutMs ?? 15_000);
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error ??= err.code ?? err.message;
      // A reset before the answer was read: that answer is lost to this client.
      if (!reading) finish(error);
    });
    socket.once('close', () => finish());
    const read = (): void => {
      reading = true;
      socket.setEncoding('latin1');
      socket.on('data', (c: string) => {
        text += c;
        const head = text.indexOf('\r\n\r\n');
        const length = /content-length: (\d+)/i.exec(text)?.[1];
        if (head !== -1 && length !== undefined && text.length >= head + 4 + Number(length)) finish();
      });
    };
    const write = (data: Buffer | string): Promise<void> =>
      new Promise((done) => (socket.destroyed ? done() : socket.write(data) ? done() : socket.once('drain', done).once('close', done)));
    void (async () => {
      const framing = options.chunked ? 'transfer-encoding: chunked' : `content-length: ${bytes}`;
      await write(`${method} ${u.pathname}${u.search} HTTP/1.1\r\nhost: ${u.host}\r\ncontent-type: application/json\r\n${framing}\r\n${options.headers ?? ''}\r\n`);
      if (!options.sendBody) return read();
      for (let sent = 0; sent < bytes && !socket.destroyed; ) {
        const n = Math.min(CHUNK.length, bytes - sent);
        const piece = n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n);
        await write(options.chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece);
        sent += n;
        if (sent % (1024 * 1024) === 0) await new Promise((r) => setTimeout(r, options.pauseEveryMiBMs ?? 5));
      }
      if (options.chunked) await write('0\r\n\r\n');
      read();
    })();
  });
}
