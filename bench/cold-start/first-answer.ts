import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { rssMiB, settle, cpuSeconds, cpuMsPrecise } from '../http/proc-stats.ts';
import { freePort, stopChild as stop } from '../http/pinned-process.ts';

export { freePort, stop };

/** The integration every `flow-studio run` contender starts: POST /orders → set → the answer (bench/http's flow) on `port`. */
export const oneRouteFlow = (port: number): string => `connectors:
  http: {type: http, host: 127.0.0.1, port: ${port}}
flows:
  price:
    source: {type: http, path: /orders, methods: [POST]}
    steps:
      - set: {body: '{"id": body.id, "customer": body.customer, "total": body.price * body.qty}'}
`;

/** The request every contender answers: the order of bench/http, to POST /orders. */
export const ORDER = JSON.stringify({ id: 'o-1042', customer: 'ana', price: 2.5, qty: 4 });
export const EXPECTED = { id: 'o-1042', customer: 'ana', total: 10 };

export interface ColdStart {
  /** Process start (just before spawn) to the first answer's last byte, in ms. */
  firstAnswerMs: number;
  /**
   * CPU the process (all its threads) had used by then, in ms (the scheduler's nanosecond
   * accounting): what the start costs whatever else the machine is doing, where the wall time
   * above waits for a core too. A busy machine still inflates it some (caches shared with other work).
   */
  firstAnswerCpuMs: number;
  /** Resident set size once the process has used no CPU for 200 ms after that answer, in MiB. */
  idleRssMiB: number;
}

/**
 * Starts a server process, sends the order to `url` every 2 ms until one attempt is answered
 * (a refused connection fails at once, so polling costs the starting process next to nothing),
 * checks the answer, waits for the process to go idle, reads its RSS and stops it.
 */
export async function measureColdStart(command: string, args: string[], env: NodeJS.ProcessEnv, url: string): Promise<ColdStart> {
  const started = performance.now();
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    let answer: string | undefined;
    while (answer === undefined) {
      if (exited) throw new Error(`${command} ${args.join(' ')} exited before answering:\n${output}`);
      if (performance.now() - started > 30_000) throw new Error(`no answer within 30 s from ${command} ${args.join(' ')}:\n${output}`);
      answer = await post(url).catch(() => new Promise<undefined>((resolve) => setTimeout(resolve, 2)));
    }
    const firstAnswerMs = performance.now() - started;
    const firstAnswerCpuMs = cpuMsPrecise(child.pid!);
    if (!isDeepStrictEqual(JSON.parse(answer), EXPECTED)) throw new Error(`unexpected answer ${answer} from ${command}`);
    await settle(() => cpuSeconds(child.pid!));
    return { firstAnswerMs, firstAnswerCpuMs, idleRssMiB: rssMiB(child.pid!) };
  } finally {
    await stop(child);
  }
}

function post(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`status ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(ORDER);
  });
}
