/**
 * A refused upload (413) answered so the client actually reads the answer: the whole answer goes
 * out at once, and the connection is closed only once the body is in, read and dropped, because
 * closing a socket with unread bytes makes the kernel reset it, and a client still sending would
 * then see ECONNRESET/EPIPE instead of the 413, however long it had the answer. The wait ends
 * early when the body pauses for `idleMs` or passes MAX_DISCARD_BYTES. Used by the runtime's http
 * routes and the platform server (shared/ imports no Node module: the shapes below are the parts
 * of node:http's request and response this needs).
 */

/** Bytes of a refused body read and dropped after its 413; a body declared past this is not waited for. */
export const MAX_DISCARD_BYTES = 64 * 1024 * 1024;

export interface UploadingRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  once(event: 'end' | 'close', listener: () => void): unknown;
  off(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  off(event: 'end' | 'close', listener: () => void): unknown;
  resume(): unknown;
}

export interface ClosingResponse {
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  end(): unknown;
}

/** Whether the request announces (Content-Length) a body longer than `maxBytes`. */
export function declaredOver(req: Pick<UploadingRequest, 'headers'>, maxBytes: number): boolean {
  const declared = req.headers['content-length'];
  return typeof declared === 'string' && Number(declared) > maxBytes;
}

/**
 * Ends `res` (its answer already written, with `Connection: close`: ending it closes the socket)
 * once the request's body is in, or has paused for `idleMs`, or passed MAX_DISCARD_BYTES.
 */
export function closeOnceBodyIsIn(req: UploadingRequest, res: ClosingResponse, idleMs: number): void {
  const close = (): void => {
    if (!res.destroyed && !res.writableEnded) res.end();
  };
  if (declaredOver(req, MAX_DISCARD_BYTES)) return close();
  let discarded = 0;
  const idle = setTimeout(() => done(), idleMs);
  // A refused upload must not keep a stopping process alive.
  (idle as { unref?: () => void }).unref?.();
  const done = (): void => {
    clearTimeout(idle);
    req.off('data', onData);
    req.off('end', done);
    req.off('close', done);
    close();
  };
  const onData = (chunk: Uint8Array): void => {
    (idle as { refresh?: () => void }).refresh?.();
    discarded += chunk.length;
    if (discarded > MAX_DISCARD_BYTES) done();
  };
  req.on('data', onData);
  req.once('end', done);
  req.once('close', done);
  req.resume();
}
