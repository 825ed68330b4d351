import { connect, type Socket } from 'node:net';

/**
 * A client at the byte level, for the slow-client tests of the runtime's http connector and the
 * platform server: both bound how long a client may trickle, and a fetch cannot trickle.
 */

/** A TCP connection to the host and port of `url`, once it is open. */
export function openSocket(url: string): Promise<Socket> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

export interface Closing {
  /** What the server sent before it closed the connection (latin1, so bytes survive). */
  text: string;
  ms: number;
  /** False when `limitMs` passed first. */
  closed: boolean;
}

/** What the server sent before it closed the connection, and after how long (or not closed within `limitMs`). */
export function untilClosed(socket: Socket, limitMs: number): Promise<Closing> {
  const started = Date.now();
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (c: string) => (text += c));
  // A reset is one way of being closed; 'close' follows it.
  socket.on('error', () => {});
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ text, ms: Date.now() - started, closed: false }), limitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ text, ms: Date.now() - started, closed: true });
    });
  });
}

/** Writes `text` one character every `everyMs` until the socket closes or the text ends. */
export async function trickle(socket: Socket, text: string, everyMs: number): Promise<void> {
  for (const ch of text) {
    if (socket.destroyed || socket.writableEnded) return;
    socket.write(ch);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
