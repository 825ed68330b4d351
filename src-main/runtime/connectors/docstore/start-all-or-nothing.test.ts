import { connect, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startYaml } from '../../testing/load-yaml.ts';
import { closedPort } from './testing/docstore-test-server.ts';

/** True when something accepts a TCP connection on 127.0.0.1:port. */
function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('a runtime whose docstore cannot be reached at start', () => {
  it('fails to start without its http route ever having been reachable', async () => {
    // A server that accepts connections and never answers: the docstore's start check waits its timeout.
    const sockets = new Set<Socket>();
    const silent = createServer((s) => sockets.add(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as { port: number }).port;
    const httpPort = await closedPort();
    const probes: boolean[] = [];
    let starting = true;
    const probing = (async () => {
      while (starting) {
        probes.push(await reachable(httpPort));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    try {
      const failure = await startYaml(`connectors:
  web: {type: http, host: 127.0.0.1, port: ${httpPort}}
  store: {type: docstore, uri: 'mongodb://127.0.0.1:${silentPort}/shop', timeout: 1s}
flows:
  orders:
    source: {type: http, connector: web, path: /orders}
    steps:
      - docstore-find: {connector: store, collection: '"orders"'}
`).then(
        () => undefined,
        (err: Error) => err.message,
      );
      expect(failure).toMatch(/^connectors\.store: docstore connector cannot start: could not reach the server/);
    } finally {
      starting = false;
      await probing;
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
    expect(probes.length).toBeGreaterThan(3);
    expect(probes.filter(Boolean)).toEqual([]);
    expect(await reachable(httpPort)).toBe(false);
  });
});

describe('a docstore connector started with verifyOnStart: false', () => {
  it('warns that the server is not reachable yet without advising verifyOnStart: false', async () => {
    const port = await closedPort();
    const { runtime, logs } = await startYaml(`connectors:
  store: {type: docstore, uri: 'mongodb://127.0.0.1:${port}/shop', verifyOnStart: false, timeout: 500ms}
flows:
  noop: {}
`);
    try {
      const deadline = Date.now() + 10_000;
      while (!logs.some((l) => l.level === 'warn' && l.msg.startsWith('docstore server not reachable yet')) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const warning = logs.find((l) => l.msg.startsWith('docstore server not reachable yet'));
      expect(warning?.msg).toMatch(new RegExp(`^docstore server not reachable yet: could not reach the server at mongodb://127\\.0\\.0\\.1:${port}/shop within 500ms \\(.+\\); check the host and port in uri$`));
    } finally {
      await runtime.stop();
    }
  });
});
