import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../core/runtime.ts';
import { problemsOf, startYaml } from '../../testing/load-yaml.ts';
import type { DocstoreConnector } from './docstore.ts';
import { closedPort, serverCredentials, serverUri } from './testing/docstore-test-server.ts';

const PASSWORD = 'Sup3r-Secret!pw';

function connectorYaml(settings: string): string {
  return `env:
  DOCSTORE_PASSWORD: {secret: true}
connectors:
  store:
    type: docstore
${settings
  .trim()
  .split('\n')
  .map((l) => `    ${l}`)
  .join('\n')}
flows:
  noop: {}
`;
}

let running: Runtime | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** A loopback server that accepts connections and never answers: every operation must time out. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function startFailure(yaml: string, env: Record<string, string> = {}): Promise<{ message: string; ms: number }> {
  const t0 = Date.now();
  try {
    running = (await startYaml(yaml, env)).runtime;
  } catch (err) {
    return { message: (err as Error).message, ms: Date.now() - t0 };
  }
  throw new Error('expected the runtime not to start');
}

describe('the docstore connector at startup', () => {
  it('fails when the server is unreachable, within its timeout, with a clear message that hides the password', async () => {
    const port = await closedPort();
    const { message, ms } = await startFailure(
      connectorYaml(`uri: mongodb://app@127.0.0.1:${port}/shop
password: \${DOCSTORE_PASSWORD}
timeout: 1s`),
      { DOCSTORE_PASSWORD: PASSWORD },
    );
    expect(message).toMatch(
      new RegExp(
        `^connectors\\.store: docstore connector cannot start: could not reach the server at mongodb://app:\\*\\*\\*\\*@127\\.0\\.0\\.1:${port}/shop within 1s \\(.*ECONNREFUSED.*\\); check the host and port in uri, or set verifyOnStart: false to start without the check$`,
      ),
    );
    expect(message).not.toContain(PASSWORD);
    // Within its timeout, not the driver's 30 s default; the slack is for a loaded machine.
    expect(ms).toBeLessThan(1000 + 1500);
  });

  it('fails within its timeout when the server accepts connections but never answers', async () => {
    const silent = await silentServer();
    try {
      const { message, ms } = await startFailure(connectorYaml(`uri: mongodb://127.0.0.1:${silent.port}/shop\ntimeout: 800ms`));
      expect(message).toMatch(/^connectors\.store: docstore connector cannot start: could not reach the server at mongodb:\/\/127\.0\.0\.1:\d+\/shop within 800ms/);
      expect(ms).toBeLessThan(800 + 1500);
    } finally {
      await silent.close();
    }
  });

  it('bounds each operation by the timeout, server selection included', async () => {
    const silent = await silentServer();
    try {
      const { runtime } = await startYaml(
        connectorYaml(`uri: mongodb://127.0.0.1:${silent.port}/shop\nverifyOnStart: false\ntimeout: 600ms`).replace(
          'flows:\n  noop: {}',
          `flows:\n  read:\n    steps:\n      - docstore-find: {connector: store, collection: '"x"'}`,
        ),
      );
      running = runtime;
      const t0 = Date.now();
      const result = await runtime.run('read');
      expect(result.error?.message).toMatch(/^docstore-find on shop\.x (could not reach the server within 600ms: .+|did not finish within the connector timeout \(600ms\))$/);
      expect(Date.now() - t0).toBeLessThan(600 + 1500);
    } finally {
      await silent.close();
    }
  });

  it('starts at once against an unreachable server when verifyOnStart is false', async () => {
    const port = await closedPort();
    const t0 = Date.now();
    const { runtime } = await startYaml(connectorYaml(`uri: mongodb://127.0.0.1:${port}/shop\nverifyOnStart: false\ntimeout: 5s`));
    running = runtime;
    expect(Date.now() - t0).toBeLessThan(2500); // not the 5 s a start check would take
    const connector = runtime.definition.connectors[0].instance as DocstoreConnector;
    expect(connector.client).toBeDefined(); // the client is opened either way
    expect(runtime.describe().connectors[0].details).toEqual({ uri: `mongodb://127.0.0.1:${port}/shop`, database: 'shop', extendedJson: 'relaxed' });
  });

  it('refuses a malformed uri at startup, naming the expected form', async () => {
    const { message } = await startFailure(connectorYaml('uri: mongodb://app@127.0.0.1:notaport/shop\nverifyOnStart: false'));
    expect(message).toMatch(/^connectors\.store: docstore connector cannot start: the uri is not a valid connection string \(.+\); expected e\.g\. mongodb:\/\/appuser@db\.example\.com:27017\/shop/);
    const other = await startFailure(connectorYaml('uri: http://app@127.0.0.1/shop\nverifyOnStart: false'));
    expect(other.message).toBe(
      'connectors.store: docstore connector cannot start: the uri must start with mongodb:// or mongodb+srv://, e.g. mongodb://appuser@db.example.com:27017/shop',
    );
  });

  it('refuses a password when the uri names no user', async () => {
    const { message } = await startFailure(connectorYaml('uri: mongodb://127.0.0.1:27017/shop\npassword: ${DOCSTORE_PASSWORD}\nverifyOnStart: false'), {
      DOCSTORE_PASSWORD: PASSWORD,
    });
    expect(message).toBe(
      'connectors.store: docstore connector cannot start: a password is set but the uri names no user; write the user in the uri, e.g. mongodb://appuser@db.example.com:27017',
    );
  });

  it('tells at load when a block has no database to use, and how to name one', () => {
    expect(
      problemsOf(`connectors:
  store: {type: docstore, uri: "mongodb://127.0.0.1:27017"}
flows:
  a:
    steps:
      - docstore-find: {connector: store, collection: '"orders"'}
`),
    ).toEqual([
      'flows.yaml:6:9 flows.a.steps[0].docstore-find: no database to use: set database on this block, or database (or a database in the uri path) on connector "store"',
    ]);
  });

  it('tells at load that a collection written as a bare name is CEL and needs quotes', () => {
    expect(
      problemsOf(`connectors:
  store: {type: docstore, uri: "mongodb://127.0.0.1:27017/shop"}
flows:
  a:
    steps:
      - docstore-find: {connector: store, collection: orders}
`),
    ).toEqual([
      `flows.yaml:6:24 flows.a.steps[0].docstore-find: collection is a CEL expression and orders is not a variable; for the collection named orders write collection: '"orders"'`,
    ]);
  });
});

describe.skipIf(!serverUri)('the docstore connector against a real server', () => {
  const { uri, user, password } = serverCredentials();

  it('merges the password setting into the uri and connects, never logging the password', async () => {
    if (password === undefined) return; // the server takes no credentials
    const { runtime, logs } = await startYaml(connectorYaml(`uri: ${JSON.stringify(uri)}\npassword: \${DOCSTORE_PASSWORD}\ntimeout: 5s`), { DOCSTORE_PASSWORD: password });
    running = runtime;
    expect(logs.find((l) => l.msg === 'docstore connected')?.uri).toMatch(/:\*\*\*\*@127\.0\.0\.1/);
    expect(JSON.stringify(logs)).not.toContain(password);
  });

  it('fails at startup on a wrong password, within the timeout, naming the user and not the password', async () => {
    const { message, ms } = await startFailure(connectorYaml(`uri: ${JSON.stringify(uri)}\npassword: \${DOCSTORE_PASSWORD}\ntimeout: 3s`), { DOCSTORE_PASSWORD: PASSWORD });
    expect(message).toMatch(
      new RegExp(`^connectors\\.store: docstore connector cannot start: the server refused the credentials of user "${user}" \\(.+\\); check the user in uri and the password setting$`),
    );
    expect(message).not.toContain(PASSWORD);
    expect(ms).toBeLessThan(3000);
  });

  it('uses the password setting over a password in the uri, with a warning naming which was used', async () => {
    if (password === undefined || user === undefined) return;
    const withWrong = uri.replace(`${encodeURIComponent(user)}@`, `${encodeURIComponent(user)}:${encodeURIComponent(PASSWORD)}@`);
    const { runtime, logs } = await startYaml(connectorYaml(`uri: ${JSON.stringify(withWrong)}\npassword: \${DOCSTORE_PASSWORD}\ntimeout: 5s`), { DOCSTORE_PASSWORD: password });
    running = runtime;
    expect(logs.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual(['the uri holds a password and the password setting is set; using the password setting']);
    expect(JSON.stringify(logs)).not.toContain(PASSWORD);
    expect(JSON.stringify(logs)).not.toContain(password);
  });

  it('recovers once the server becomes reachable after a failed first attempt', async () => {
    const target = new URL(uri.replace(/^mongodb(\+srv)?:/, 'http:'));
    const port = await closedPort();
    const { runtime } = await startYaml(
      connectorYaml(`uri: ${JSON.stringify(uri.replace(target.host, `127.0.0.1:${port}`))}\n${password === undefined ? '' : 'password: ${DOCSTORE_PASSWORD}\n'}database: flowtest_recover\nverifyOnStart: false\ntimeout: 1s`).replace(
        'flows:\n  noop: {}',
        `flows:\n  read:\n    steps:\n      - docstore-find: {connector: store, collection: '"x"'}`,
      ),
      password === undefined ? {} : { DOCSTORE_PASSWORD: password },
    );
    running = runtime;
    expect((await runtime.run('read')).error?.message).toMatch(/could not reach the server within 1s/);
    // The server appears on that port: a loopback relay to the real one.
    const relay = createServer((c) => {
      const upstream = connect(Number(target.port), target.hostname);
      c.pipe(upstream).pipe(c);
      c.on('error', () => upstream.destroy());
      upstream.on('error', () => c.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
    try {
      const result = await runtime.run('read');
      expect(result.error).toBeUndefined();
      expect(result.message.body).toEqual([]);
    } finally {
      await runtime.stop();
      running = undefined;
      relay.close();
    }
  });

  it('disconnects on stop, after which a block says the connector is not started', async () => {
    const { runtime } = await startYaml(
      connectorYaml(`uri: ${JSON.stringify(uri)}\n${password === undefined ? '' : 'password: ${DOCSTORE_PASSWORD}\n'}database: flowtest_stop`).replace(
        'flows:\n  noop: {}',
        `flows:\n  read:\n    steps:\n      - docstore-find: {connector: store, collection: '"x"'}`,
      ),
      password === undefined ? {} : { DOCSTORE_PASSWORD: password },
    );
    const connector = runtime.definition.connectors[0].instance as DocstoreConnector;
    expect((await runtime.run('read')).outcome).toBe('completed');
    await runtime.stop();
    expect(connector.client).toBeUndefined();
    const after = await runtime.run('read');
    expect(after.error?.message).toBe('docstore-find on flowtest_stop.x: the docstore connector connectors.store is not started');
  });
});
