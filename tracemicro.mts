import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatformServer } from './src-main/platform/index.ts';
import { startRuntime } from './src-main/runtime/index.ts';
const mode = process.argv[2];
const flow = `flows:
  price:
    steps:
      - set: {body: '{"id": body.id, "customer": body.customer, "total": body.price * body.qty}'}
`;
const server = await startPlatformServer({ dataDir: mkdtempSync(join(tmpdir(), 'tm-')), token: 'tok-123456' });
const platform = mode === 'none' ? undefined : { url: server.url, token: 'tok-123456', inProcess: { ingest: (k: 'traces' | 'logs', c: number, t: string) => server.ingestTelemetry(k, c, t) } };
const { runtime } = await startRuntime({ definitions: [{ file: 'f.yaml', text: flow }], variables: {}, platform, identity: { deploymentId: 'local', instanceId: 'i' }, logSinks: [] });
const body = { id: 'o-1042', customer: 'ana', price: 2.5, qty: 4 };
async function drive(n: number) { for (let i = 0; i < n; i += 100) { const ps = []; for (let j = 0; j < 100; j++) ps.push(runtime.run('price', body)); await Promise.all(ps); await new Promise((r) => setImmediate(r)); } }
await drive(100_000);
await new Promise((r) => setTimeout(r, 1500));
const N = 300_000; const t0 = process.cpuUsage();
await drive(N); await new Promise((r) => setTimeout(r, 1500));
const t = process.cpuUsage(t0);
console.log(`${mode}: ${((t.user + t.system) / N).toFixed(2)} µs CPU per run, kept ${server.traces.kept.records}`);
process.exit(0);
