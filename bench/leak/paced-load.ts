import { Agent, request } from 'node:http';

export interface LoadResult {
  sent: number;
  answered: number;
  failed: number;
  /** Sends skipped because CONNECTIONS requests were already waiting (the server fell behind). */
  skipped: number;
  seconds: number;
}

const CONNECTIONS = 50;

/**
 * POSTs `body` to `url`: as fast as CONNECTIONS keep-alive connections allow when `perSecond` is
 * undefined (the server's maximum), else at that steady rate (an open loop, sent in 10 ms slices),
 * for `seconds`, or until `stop` is aborted. Every answer must be a 200.
 */
export async function load(url: string, body: string, seconds: number, perSecond?: number, stop?: AbortSignal): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const result: LoadResult = { sent: 0, answered: 0, failed: 0, skipped: 0, seconds: 0 };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let inFlight = 0;
  const done = (): boolean => performance.now() >= deadline || stop?.aborted === true;
  const send = (): Promise<void> =>
    new Promise((resolve) => {
      inFlight++;
      result.sent++;
      const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) result.answered++;
          else result.failed++;
          inFlight--;
          resolve();
        });
      });
      req.on('error', () => {
        result.failed++;
        inFlight--;
        resolve();
      });
      req.end(body);
    });
  if (perSecond === undefined) {
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (!done()) await send();
      }),
    );
  } else {
    // Owed from the time gone by, so a late timer sends its slice's worth and the rate holds.
    let due = 0;
    while (!done()) {
      const owed = Math.floor(((performance.now() - started) / 1000) * perSecond) - due;
      for (let i = 0; i < owed; i++) {
        due++;
        if (inFlight >= CONNECTIONS) result.skipped++;
        else void send();
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  result.seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return result;
}
