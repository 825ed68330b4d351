import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startPlatformServer, type PlatformServer } from '../platform/index.ts';
import { runCli } from './test-support/cli-process.ts';

const DEFINITION = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  count:
    source: {type: http, connector: web, path: /count, methods: [POST]}
    steps:
      - kv-put: {key: '"count"', value: '1'}
`;

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Container {
  env: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: unknown } }>;
  volumeMounts: Array<{ name: string; mountPath: string }>;
  command?: string[];
  args?: string[];
}
interface PodSpec {
  volumes: Array<{ name: string; secret?: { secretName: string; items: Array<{ key: string; path: string }> } }>;
  initContainers: Container[];
  containers: Container[];
}

/**
 * What the kubelet gives a container of the manifest, in a folder standing for the pod's root:
 * Secret volumes written as files (and written again on `rotate`, as the kubelet does when the
 * Secret changes), env values with paths under the root, secretKeyRefs resolved once at start.
 */
function pod(spec: PodSpec, root: string, secrets: Record<string, Record<string, string>>) {
  const writeSecretVolumes = (): void => {
    for (const c of [...spec.initContainers, ...spec.containers]) {
      for (const mount of c.volumeMounts) {
        const volume = spec.volumes.find((v) => v.name === mount.name)?.secret;
        for (const item of volume?.items ?? []) {
          const file = join(root, mount.mountPath, item.path);
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, secrets[volume!.secretName][item.key]);
        }
      }
    }
  };
  writeSecretVolumes();
  const inRoot = (value: string): string => (value.startsWith('/') ? join(root, value) : value);
  return {
    env(c: Container): Record<string, string> {
      const env: Record<string, string> = {};
      for (const e of c.env) {
        if (e.value !== undefined) env[e.name] = e.name === 'FLOW_PLATFORM_API_TOKEN_FILE' ? inRoot(e.value) : e.value;
        else if (e.valueFrom?.secretKeyRef) env[e.name] = secrets[e.valueFrom.secretKeyRef.name][e.valueFrom.secretKeyRef.key];
        else env[e.name] = 'pod-0';
      }
      return env;
    },
    rotate(secret: string, key: string, value: string): void {
      secrets[secret][key] = value;
      writeSecretVolumes();
    },
    path: inRoot,
  };
}

describe('flow-studio manifest: the platform token of a running pod', () => {
  const dirs: string[] = [];
  const stops: Array<() => unknown> = [];
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('is read from the mounted Secret, so a rotated token reaches the runtime without a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'flow-rotation-platform-'));
    const root = mkdtempSync(join(tmpdir(), 'flow-rotation-pod-'));
    dirs.push(dataDir, root);
    let platform: PlatformServer = await startPlatformServer({ dataDir, token: 'token-before' });
    stops.push(() => platform.close());
    const port = Number(new URL(platform.url).port);
    const call = (method: string, path: string, json: unknown) =>
      fetch(`${platform.url}${path}`, { method, headers: { authorization: 'Bearer token-before', 'content-type': 'application/json' }, body: JSON.stringify(json) });
    expect((await call('PUT', '/integrations/counter/definitions/count.yaml', { content: DEFINITION })).status).toBe(201);
    expect((await call('POST', '/integrations/counter/tags', { tag: 'v1' })).status).toBe(201);
    expect((await call('PUT', '/deployments/counter-prod', { integration: 'counter', tag: 'v1', bindings: {} })).status).toBe(201);

    const printed = await runCli(['manifest', '--platform', platform.url, '--token', 'token-before', '--deployment', 'counter-prod', '--platform-service', platform.url]);
    expect(printed.code, printed.output).toBe(0);
    const spec = (parse(printed.stdout) as { spec: { template: { spec: PodSpec } } }).spec.template.spec;
    const p = pod(spec, root, { 'flow-platform': { token: 'token-before\n' } });

    const init = spec.initContainers[0];
    const fetched = await new Promise((resolve) =>
      spawn(process.execPath, init.command!.slice(1).map((a) => (a === '/flows' ? p.path(a) : a)), { env: { ...process.env, ...p.env(init) }, stdio: 'ignore' }).once('close', resolve),
    );
    expect(fetched).toBe(0);

    const runtime = spec.containers[0];
    const child = spawn(process.execPath, ['bin/flow-studio.js', ...runtime.args!.map((a) => (a === '/flows' ? p.path(a) : a))], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...p.env(runtime), HTTP_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stops.push(() => child.kill('SIGKILL'));
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    // The route's address is in the 'connector web ready' line, written just after 'runtime started'.
    const routeUrl = /"url":"(http:\/\/127\.0\.0\.1:\d+)\/count"/;
    await until(() => routeUrl.test(output), 20_000, 'the runtime to serve /count');
    const url = routeUrl.exec(output)![1];
    expect((await fetch(`${url}/count`, { method: 'POST' })).status, output).toBe(200);

    // The token is rotated: the Secret changes (the kubelet rewrites the mounted file) and the
    // platform restarts with the new one. The running pod is not restarted.
    await platform.close();
    platform = await startPlatformServer({ dataDir, port, token: 'token-after' });
    p.rotate('flow-platform', 'token', 'token-after\n');
    const res = await fetch(`${url}/count`, { method: 'POST' });
    expect(res.status, `${await res.text()}\n${output}`).toBe(200);
  }, 60_000);
});
