/**
 * Responses finished during this turn of the event loop, ended together once its I/O is handled
 * (setImmediate runs right after the poll phase). Ended one by one as each run answers, every
 * response's write wakes its client, which reads it, sends its next request and sleeps again
 * before the next response comes; written back to back, a client woken by the first finds the
 * rest waiting. On a loaded server the wake-ups were most of a response's cost in the kernel:
 * under wrk -c50 on 127.0.0.1, bare node:http ended this way answered 40–70% more requests a
 * second, with a lower p99, and a lone request as fast (it waits only for its own turn's end). The same
 * trick as Netty's flush consolidation and uWebSockets' corking. Used by every HTTP surface: the
 * runtime's http routes, the platform server and the studio's web server (Node only: setImmediate; tested in
 * src-main/runtime/connectors/http/end-of-turn.test.ts, as shared/ imports no Node module).
 */

/** What of node:http's ServerResponse this needs (shared/ imports no Node module). */
export interface EndableResponse {
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  end(chunk?: string | Uint8Array): unknown;
  destroy(): unknown;
}

const responses: EndableResponse[] = [];
const payloads: Array<string | Uint8Array | undefined> = [];

/**
 * Ends `res` with `payload` at the end of this turn. Its headers are written already
 * (`headersSent` is true), so nothing else answers it meanwhile.
 */
export function endThisTurn(res: EndableResponse, payload: string | Uint8Array | undefined): void {
  if (responses.length === 0) setImmediate(endAll);
  responses.push(res);
  payloads.push(payload);
}

/**
 * Whether `res` waits for the end of this turn to be ended: answered in full, so something that
 * fails after its answer must not cut it off. A search, for the error path only: the hot path
 * marks nothing on the response.
 */
export function endsThisTurn(res: EndableResponse): boolean {
  return responses.includes(res);
}

/**
 * Ends now the responses this turn has answered so far, rather than at the turn's end: for a
 * caller that answers them from a setImmediate callback of its own (a group commit), whose
 * turn-end write would otherwise wait for the next turn of the event loop.
 */
export function endTurnNow(): void {
  if (responses.length > 0) endAll();
}

function endAll(): void {
  // Ending one may answer another (a `finish` listener): the loop reads the length each time.
  for (let i = 0; i < responses.length; i++) {
    const res = responses[i];
    const payload = payloads[i];
    // The client may have left since; its response has nowhere to go.
    if (res.destroyed || res.writableEnded) continue;
    try {
      if (payload === undefined) res.end();
      else res.end(payload);
    } catch {
      // One response that cannot be ended must not keep the others of its turn from their clients.
      res.destroy();
    }
  }
  responses.length = 0;
  payloads.length = 0;
}
