import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, matchesGlob } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { runtimeDeploymentManifest } from '../platform/index.ts';
import { startTestPlatform, type TestPlatform } from '../platform/testing/platform-harness.ts';

const DEFINITION = `env:
  DB_PASSWORD: {required: true, secret: true, description: the orders database}
  REGION: {required: true}
  GREETING: {default: hello}
  BANNER: {}
flows: {}
`;

let platform: TestPlatform;
let snapshotId: string;
beforeAll(async () => {
  platform = await startTestPlatform();
  await platform.call('PUT', '/integrations/orders/definitions/orders.yaml', { json: { content: DEFINITION } });
  await platform.call('POST', '/integrations/orders/resources', { json: { kind: 'env', name: 'prod.env', content: 'REGION=eu-west-1\n' } });
  snapshotId = ((await platform.call('POST', '/integrations/orders/tags', { json: { tag: 'v1.2.0' } })).json as { snapshotId: string }).snapshotId;
  await platform.call('PUT', '/secrets/orders-db', { json: { value: 'never-in-a-manifest-9c2e' } });
  const deployed = await platform.call('PUT', '/deployments/orders-prod', {
    json: { integration: 'orders', tag: 'v1.2.0', bindings: { DB_PASSWORD: { secret: 'orders-db' }, GREETING: { value: 'hi' }, BANNER: { value: '' } } },
  });
  expect(deployed.status).toBe(201);
});
afterAll(() => platform.close());

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['bin/flow-studio.js', ...args], { cwd: process.cwd(), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out, err })));
}

type Env = Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;

describe('flow-studio manifest: a runtime Deployment from a version tag', () => {
  it('prints a Deployment valid against the Kubernetes schema, with FLOW_SNAPSHOT_ID, literal and secretKeyRef bindings', async () => {
    const res = await cli(['manifest', '--platform', platform.url, '--token', platform.server.token!, '--deployment', 'orders-prod', '--image', 'registry.example/flow-studio:0.1.0', '--replicas', '3']);
    expect(res.err).toBe('');
    expect(res.code).toBe(0);
    const manifest = parse(res.out) as { spec: { replicas: number; template: { spec: { containers: Array<{ env: Env; args: string[] }>; initContainers: Array<{ command: string[] }> } } } };
    new Deployment(manifest as never).validate();
    expect(manifest.spec.replicas).toBe(3);
    const [runtime] = manifest.spec.template.spec.containers;
    expect(runtime.args).toEqual(['run', '/flows']);
    const env = new Map(runtime.env.map((e) => [e.name, e]));
    expect(env.get('FLOW_SNAPSHOT_ID')).toEqual({ name: 'FLOW_SNAPSHOT_ID', value: snapshotId });
    expect(env.get('FLOW_DEPLOYMENT_ID')?.value).toBe('orders-prod');
    expect(env.get('DB_PASSWORD')).toEqual({ name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'flow-secrets', key: 'orders-db' } } });
    expect(env.get('GREETING')).toEqual({ name: 'GREETING', value: 'hi' });
    expect(env.has('BANNER')).toBe(false); // an empty literal injects nothing
    expect(env.has('HTTP_PORT') || env.has('HTTP_HOST')).toBe(false);
    expect(res.out).not.toContain('never-in-a-manifest-9c2e');
    // Every declared variable is bound, satisfied by a frozen env resource, or optional.
    const snapshot = (await platform.call('GET', `/snapshots/${snapshotId}`)).json as { variables: Array<{ name: string; required: boolean; satisfiedBy: string[] }> };
    for (const v of snapshot.variables.filter((x) => x.required)) expect(env.has(v.name) || v.satisfiedBy.length > 0, v.name).toBe(true);
    expect(snapshot.variables.find((v) => v.name === 'REGION')?.satisfiedBy).toEqual(['prod.env']);
  });

  it('names the Deployment and labels its pods as Kubernetes accepts, whatever the ids, one id per name and selector', async () => {
    // Kubernetes refuses a Deployment name that is not a DNS-1123 label and a label value over 63
    // characters or outside [A-Za-z0-9._-]; kubectl apply refused "flow-Orders_Prod".
    const dns1123 = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
    const labelValue = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;
    expect((await platform.call('PUT', '/deployments/Orders_Prod', { json: { integration: 'orders', tag: 'v1.2.0', bindings: { DB_PASSWORD: { secret: 'orders-db' } } } })).status).toBe(201);
    const res = await cli(['manifest', '--platform', platform.url, '--token', platform.server.token!, '--deployment', 'Orders_Prod']);
    expect(res.code, res.err).toBe(0);
    type Meta = { name: string; labels: Record<string, string> };
    const printed = parse(res.out) as { metadata: Meta; spec: { selector: { matchLabels: Record<string, string> }; template: { spec: { containers: Array<{ env: Env }> } } } };
    expect(printed.metadata.name).toMatch(dns1123);
    for (const value of Object.values(printed.metadata.labels)) expect(value).toMatch(labelValue);
    // The runtime still runs under the exact id.
    expect(printed.spec.template.spec.containers[0].env.find((e) => e.name === 'FLOW_DEPLOYMENT_ID')?.value).toBe('Orders_Prod');

    const long = (integration: string, deploymentId: string) =>
      runtimeDeploymentManifest({
        deploymentId,
        snapshot: { id: 's', integration, tag: 'v1', variables: [] },
        bindings: {},
        image: 'x',
        replicas: 1,
        platformUrl: 'http://flow-platform:7480',
        platformTokenSecret: 'flow-platform',
      }) as unknown as { metadata: Meta; spec: { selector: { matchLabels: Record<string, string> } } };
    const stem = `billing-${'x'.repeat(70)}`;
    const [a, b] = [long(`${stem}-a`, `${stem}-prod-a`), long(`${stem}-b`, `${stem}-prod-b`)];
    for (const m of [a, b]) {
      expect(m.metadata.name).toMatch(dns1123);
      for (const value of Object.values(m.metadata.labels)) expect(value).toMatch(labelValue);
    }
    expect(a.metadata.name).not.toBe(b.metadata.name);
    expect(a.spec.selector.matchLabels).not.toEqual(b.spec.selector.matchLabels);
    // A valid id is kept as it is.
    expect(long('orders', 'orders-prod').metadata.name).toBe('flow-orders-prod');
  });

  it('makes a pod ready once its routes listen on the container port, and warns of connectors a Service cannot reach', async () => {
    // Without a readiness probe a pod took the Service's traffic from the moment its container
    // started, while the runtime was still discovering the platform and had bound nothing.
    const deploy = async (integration: string, connector: string): Promise<void> => {
      await platform.call('PUT', `/integrations/${integration}/definitions/web.yaml`, {
        json: { content: `connectors:\n  web: ${connector}\nflows:\n  hello:\n    source: {type: http, connector: web, path: /hello, methods: [GET]}\n    steps: []\n` },
      });
      expect((await platform.call('POST', `/integrations/${integration}/tags`, { json: { tag: 'v1' } })).status).toBe(201);
      expect((await platform.call('PUT', `/deployments/${integration}-prod`, { json: { integration, tag: 'v1', bindings: {} } })).status).toBe(201);
    };
    type Runtime = { readinessProbe?: unknown; ports: Array<{ name: string; containerPort: number }> };
    const runtimeOf = (out: string): Runtime => (parse(out) as { spec: { template: { spec: { containers: Runtime[] } } } }).spec.template.spec.containers[0];

    await deploy('served', '{type: http}');
    const served = await cli(['manifest', '--platform', platform.url, '--token', platform.server.token!, '--deployment', 'served-prod']);
    expect(served.code, served.err).toBe(0);
    expect(served.err).toBe('');
    new Deployment(parse(served.out) as never).validate();
    expect(runtimeOf(served.out).readinessProbe).toMatchObject({ tcpSocket: { port: 'http' } });
    expect(runtimeOf(served.out).ports).toEqual([{ name: 'http', containerPort: 8080 }]);

    await deploy('studio-made', '{type: http, host: 127.0.0.1, port: 0}');
    const local = await cli(['manifest', '--platform', platform.url, '--token', platform.server.token!, '--deployment', 'studio-made-prod']);
    expect(local.code, local.err).toBe(0);
    expect(local.err).toContain('flow-studio manifest: warning: web.yaml connectors.web binds host 127.0.0.1: a Service cannot reach its routes; remove host: so it binds HTTP_HOST (0.0.0.0)');
    expect(local.err).toContain('flow-studio manifest: warning: web.yaml connectors.web listens on port 0, not the container port 8080; remove port: so it listens on HTTP_PORT');
    expect(runtimeOf(local.out).readinessProbe).toBeUndefined();

    // A tag with no http connector (a queue worker) has nothing to probe.
    const worker = await cli(['manifest', '--platform', platform.url, '--token', platform.server.token!, '--deployment', 'orders-prod']);
    expect(runtimeOf(worker.out).readinessProbe).toBeUndefined();
  });

  it('names a deployment the platform does not have', async () => {
    const res = await cli(['manifest', '--platform', platform.url, '--token', platform.server.token!, '--deployment', 'ghost']);
    expect(res.code).toBe(1);
    expect(res.err).toContain('GET /deployments/ghost answered 404');
  });

  it('refuses a binding for the managed HTTP_PORT, a literal for a secret variable and an unbound required variable, naming each', () => {
    const variables = [
      { name: 'DB_PASSWORD', required: true, secret: true, declaredIn: 'a.yaml', satisfiedBy: [] },
      { name: 'TOKEN', required: false, secret: true, declaredIn: 'a.yaml', satisfiedBy: [] },
      { name: 'HTTP_PORT', required: false, secret: false, declaredIn: 'a.yaml', satisfiedBy: [] },
    ];
    expect(() =>
      runtimeDeploymentManifest({
        deploymentId: 'd',
        snapshot: { id: 's', integration: 'i', tag: 'v1', variables },
        bindings: { HTTP_PORT: { value: '9000' }, TOKEN: { value: 'plain' } },
        image: 'x',
        replicas: 1,
        platformUrl: 'http://flow-platform:7480',
        platformTokenSecret: 'flow-platform',
      }),
    ).toThrow(
      'deployment "d" of i:v1 cannot run:\n' +
        "  HTTP_PORT is managed by the runtime's container (the pod's port and address); remove its binding\n" +
        '  TOKEN is declared secret: true, so it is bound to a cluster secret by name, never to a literal value\n' +
        '  DB_PASSWORD is required (a.yaml) and has no binding and no frozen env resource',
    );
  });

  it('the init container script unpacks the tag the manifest names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flow-fetch-snapshot-'));
    try {
      const child = spawn(process.execPath, ['bin/fetch-snapshot.js', join(dir, 'flows')], {
        env: { ...process.env, FLOW_PLATFORM_API_URL: platform.url, FLOW_PLATFORM_API_TOKEN: platform.server.token!, FLOW_SNAPSHOT_ID: snapshotId },
        stdio: 'ignore',
      });
      expect(await new Promise((r) => child.once('exit', r))).toBe(0);
      expect(readFileSync(join(dir, 'flows', 'orders.yaml'), 'utf8')).toBe(DEFINITION);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bin/fetch-snapshot.js, the init container', () => {
  // It printed "fetch failed" and a stack trace: neither the reason (refused, no such host) nor the variable.
  it('says why the platform could not be reached, naming FLOW_PLATFORM_API_URL, within the discovery budget', async () => {
    // A port nothing listens on: one the OS just gave and took back.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const child = spawn(process.execPath, ['bin/fetch-snapshot.js', join(tmpdir(), 'flow-never-written')], {
      env: { ...process.env, FLOW_PLATFORM_API_URL: `http://127.0.0.1:${port}`, FLOW_SNAPSHOT_ID: 'snap_x', FLOW_PLATFORM_API_DISCOVERY_BUDGET: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    expect(await new Promise((r) => child.once('close', r))).toBe(1);
    expect(err).toBe(`fetch-snapshot: cannot reach the platform at http://127.0.0.1:${port} (FLOW_PLATFORM_API_URL) after 1 attempt within 0: connect ECONNREFUSED 127.0.0.1:${port}\n`);
  });
});

describe('docs/kubernetes/platform.yaml', () => {
  const all = parseAllDocuments(readFileSync('docs/kubernetes/platform.yaml', 'utf8')).map((d) => d.toJSON() as { kind: string } & Record<string, never>);
  const docs = all.filter((d) => d.kind === 'Deployment' || d.kind === 'Service');

  it('holds a service account allowed to write flow-secrets, a Deployment and a Service, valid against the Kubernetes schemas', () => {
    expect(all.map((d) => d.kind)).toEqual(['ServiceAccount', 'Role', 'RoleBinding', 'Deployment', 'Service']);
    const models = [ServiceAccount, Role, RoleBinding, Deployment, Service];
    all.forEach((doc, i) => new models[i](doc as never).validate());
    expect(JSON.stringify(all[1])).toContain('"resourceNames":["flow-secrets"]');
  });

  it('runs replicas on the store URL and keys from Secrets, with readiness and liveness probes on discovery', () => {
    const d = docs[0] as unknown as {
      spec: { replicas: number; template: { spec: { containers: Array<{ env: Env; args: string[]; readinessProbe: unknown; livenessProbe: unknown }>; securityContext: { runAsNonRoot: boolean } } } };
    };
    expect(d.spec.replicas).toBeGreaterThanOrEqual(2);
    const [c] = d.spec.template.spec.containers;
    expect(c.env).toEqual([
      { name: 'FLOW_PLATFORM_STORE', valueFrom: { secretKeyRef: { name: 'flow-platform', key: 'store-url' } } },
      { name: 'FLOW_PLATFORM_SECRET_KEY', valueFrom: { secretKeyRef: { name: 'flow-platform', key: 'secret-key' } } },
      { name: 'FLOW_CLUSTER_SECRETS', value: 'kubernetes' },
    ]);
    expect(c.args).toContain('--token-file');
    expect(c.readinessProbe).toMatchObject({ httpGet: { path: '/v1/discovery' } });
    expect(c.livenessProbe).toMatchObject({ httpGet: { path: '/v1/discovery' } });
    expect(d.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
  });
});

describe('Dockerfile', () => {
  const text = readFileSync('Dockerfile', 'utf8');
  const stages = text.split(/^FROM /m).slice(1);

  it('is multi-stage, and the final stage installs no build tools and runs as a non-root user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const final = stages[stages.length - 1];
    expect(final).not.toMatch(/apt-get install|apk add|g\+\+|make|python3/);
    expect(final).toMatch(/^USER (node|[1-9]\d*)\s*$/m);
    expect(final).toContain('ENTRYPOINT ["node", "bin/flow-studio.js"]');
    expect(stages[0]).toMatch(/npm ci --omit=dev/);
  });

  it('runs the JavaScript built ahead of time: the build stage runs `npm run build`, the final stage gets dist-electron/ and no sources', () => {
    expect(stages[0]).toMatch(/^RUN npm run build$/m);
    const final = stages[stages.length - 1];
    expect(final).toMatch(/^COPY --from=build .*\/app\/dist-electron /m);
    expect(final).not.toMatch(/src-main|tsconfig/);
  });

  it("holds what the runtime manifest's init container runs: the tag is unpacked from inside the image's files", async () => {
    // The image's /app as the final stage copies it from the build stage, plain JavaScript only
    // (node_modules and dist-electron are the build's output, not what an init script may need).
    const final = stages[stages.length - 1];
    const app = mkdtempSync(join(tmpdir(), 'flow-image-app-'));
    try {
      for (const m of final.matchAll(/^COPY --from=build (?:--\S+ )*(.+) \S+$/gm)) {
        for (const source of m[1].split(/\s+/).filter((p) => p.startsWith('/app/bin/'))) {
          const pattern = source.slice('/app/'.length);
          for (const file of readdirSync(dirname(pattern)).filter((f) => matchesGlob(join(dirname(pattern), f), pattern))) {
            mkdirSync(join(app, dirname(pattern)), { recursive: true });
            copyFileSync(join(dirname(pattern), file), join(app, dirname(pattern), file));
          }
        }
      }
      const manifest = runtimeDeploymentManifest({
        deploymentId: 'orders-prod',
        snapshot: { id: snapshotId, integration: 'orders', tag: 'v1.2.0', variables: [] },
        bindings: {},
        image: 'x',
        replicas: 1,
        platformUrl: platform.url,
        platformTokenSecret: 'flow-platform',
      }) as unknown as { spec: { template: { spec: { initContainers: Array<{ command: string[] }> } } } };
      const [command, ...args] = manifest.spec.template.spec.initContainers[0].command;
      expect(command).toBe('node');
      const flows = join(app, 'flows');
      const child = spawn(process.execPath, args.map((a) => (a === '/flows' ? flows : a)), {
        cwd: app,
        env: { ...process.env, FLOW_PLATFORM_API_URL: platform.url, FLOW_PLATFORM_API_TOKEN: platform.server.token!, FLOW_SNAPSHOT_ID: snapshotId },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      expect(await new Promise((r) => child.once('close', r)), err).toBe(0);
      expect(readFileSync(join(flows, 'orders.yaml'), 'utf8')).toBe(DEFINITION);
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });

  it('copies only paths that exist', () => {
    for (const m of text.matchAll(/^COPY (?!--from)(?:--\S+ )*(.+) \S+$/gm)) {
      for (const path of m[1].split(/\s+/)) expect(existsSync(path), path).toBe(true);
    }
  });
});
