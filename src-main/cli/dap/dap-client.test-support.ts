import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../../bin/flow-studio.js', import.meta.url));

export interface DapMessage {
  seq: number;
  type: 'request' | 'response' | 'event';
  command?: string;
  event?: string;
  request_seq?: number;
  success?: boolean;
  message?: string;
  body?: Record<string, unknown> & { [key: string]: unknown };
}

/**
 * A DAP client over the real stdio of `flow-studio debug --dap`: requests and events framed with
 * Content-Length headers, exactly as VS Code speaks them. Written from the protocol, not from the
 * adapter's code.
 */
export class DapClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly events: DapMessage[] = [];
  readonly exited: Promise<number | null>;
  stderr = '';
  private seq = 1;
  private buffer = Buffer.alloc(0);
  private readonly pending = new Map<number, (m: DapMessage) => void>();
  private readonly waiters: Array<{ test: (m: DapMessage) => boolean; resolve: (m: DapMessage) => void }> = [];

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.child = spawn(process.execPath, [CLI, 'debug', '--dap'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.take(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Sends a request and resolves with its response (success or not). */
  request(command: string, args?: unknown): Promise<DapMessage> {
    const seq = this.seq++;
    const json = JSON.stringify({ seq, type: 'request', command, arguments: args });
    // Split in two writes on purpose: the adapter must reassemble a message from chunks.
    const frame = Buffer.from(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
    const cut = Math.floor(frame.length / 2);
    this.child.stdin.write(frame.subarray(0, cut));
    this.child.stdin.write(frame.subarray(cut));
    return new Promise((resolve) => this.pending.set(seq, resolve));
  }

  /** Resolves with the first event (already received or to come) that passes the test. */
  event(name: string, test: (m: DapMessage) => boolean = () => true, timeoutMs = 20_000): Promise<DapMessage> {
    const matches = (m: DapMessage) => m.event === name && test(m);
    const seen = this.events.find(matches);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${name} event within ${timeoutMs} ms; events: ${this.events.map((e) => e.event).join(', ')}; stderr: ${this.stderr}`)), timeoutMs);
      this.waiters.push({
        test: matches,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** Output events' text so far, in order. */
  output(): string {
    return this.events
      .filter((e) => e.event === 'output')
      .map((e) => String(e.body?.output ?? ''))
      .join('');
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }

  private take(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/.exec(this.buffer.subarray(0, end).toString())?.[1]);
      if (this.buffer.length < end + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString()) as DapMessage;
      this.buffer = this.buffer.subarray(end + 4 + length);
      if (message.type === 'response') {
        this.pending.get(message.request_seq!)?.(message);
        this.pending.delete(message.request_seq!);
      } else if (message.type === 'event') {
        this.events.push(message);
        for (let i = 0; i < this.waiters.length; i++) {
          if (!this.waiters[i].test(message)) continue;
          this.waiters[i].resolve(message);
          this.waiters.splice(i--, 1);
        }
      }
    }
  }
}
