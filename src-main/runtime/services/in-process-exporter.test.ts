import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessExporter } from './trace-exporter.ts';

const closing: Array<() => void> = [];
afterEach(() => {
  for (const close of closing.splice(0)) close();
});

/** A server that notes each request it answers, and a client socket connected to it. */
async function serverAndClient(events: string[]): Promise<{ server: Server; client: Socket }> {
  const server = createServer((_req, res) => {
    events.push('request answered');
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<void>((resolve) => server.once('connection', () => resolve()));
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  client.resume();
  await Promise.all([accepted, new Promise((resolve) => client.once('connect', resolve))]);
  closing.push(() => {
    client.destroy();
    server.closeAllConnections();
    server.close();
  });
  return { server, client };
}

describe('InProcessExporter', () => {
  it('answers a request that came in while a batch was serialized before it stores the batch', async () => {
    const events: string[] = [];
    const { client } = await serverAndClient(events);
    const stored: string[] = [];
    const exporter = new InProcessExporter<{ n: number }>('traces', {
      ingest: (_kind, count, text) => {
        events.push('batch stored');
        stored.push(`${count}:${text}`);
        // Storing takes this thread's time, which the tracing budget is charged.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      },
    });
    const charged: number[] = [];
    // The pipeline exports from a timer or an immediate, as here; the request's bytes are in the
    // server's socket before the batch is serialized, as when one arrives while the thread works
    // on telemetry.
    let exported: Promise<boolean> | undefined;
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        client.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
        exported = exporter.export([{ n: 1 }, { n: 2 }], undefined, (ms) => charged.push(ms));
        events.push('batch serialized');
        resolve();
      }),
    );
    await expect(exported).resolves.toBe(true);
    expect(events).toEqual(['batch serialized', 'request answered', 'batch stored']);
    expect(stored).toEqual(['2:[{"n":1},{"n":2}]']);
    expect(charged).toHaveLength(1);
    expect(charged[0]).toBeGreaterThanOrEqual(4.5);
  });

  it('stores batches handed on one after another in the order given', async () => {
    const stored: string[] = [];
    const exporter = new InProcessExporter<number>('logs', { ingest: (kind, _count, text) => void stored.push(`${kind} ${text}`) });
    await Promise.all([exporter.export([1], undefined), exporter.export([2, 3], undefined), exporter.export([4], undefined)]);
    expect(stored).toEqual(['logs [1]', 'logs [2,3]', 'logs [4]']);
  });
});
