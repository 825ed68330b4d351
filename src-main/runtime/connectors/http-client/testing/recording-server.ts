import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as it reached the server. */
export interface Arrival {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Which connection carried it, numbered from 1 in the order they were opened. */
  socket: number;
  at: number;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, arrival: Arrival) => void | Promise<void>;

export interface RecordingServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  arrivals: Arrival[];
  /** Connections opened so far. */
  readonly sockets: number;
  /** Connections open now. */
  readonly openSockets: number;
  /** Replaces how requests are answered (default: 200 `{"ok": true}`). */
  handle(handler: Handler): void;
  reset(): void;
  close(): Promise<void>;
}

/** Test helper: a local upstream on 127.0.0.1 that records every request and counts connections. */
export async function startRecordingServer(handler?: Handler): Promise<RecordingServer> {
  let current: Handler = handler ?? ((_req, res) => json(res, 200, { ok: true }));
  const arrivals: Arrival[] = [];
  const ids = new WeakMap<Socket, number>();
  const open = new Set<Socket>();
  let sockets = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const arrival: Arrival = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        socket: ids.get(req.socket) ?? 0,
        at: Date.now(),
      };
      arrivals.push(arrival);
      Promise.resolve(current(req, res, arrival)).catch((err: Error) => {
        if (!res.headersSent) json(res, 500, { error: err.message });
      });
    });
  });
  server.on('connection', (socket) => {
    ids.set(socket, ++sockets);
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    arrivals,
    get sockets() {
      return sockets;
    },
    get openSockets() {
      return open.size;
    },
    handle(h) {
      current = h;
    },
    reset() {
      arrivals.length = 0;
    },
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
