import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startPinned, type Started } from './pinned-process.ts';

/**
 * Node-RED doing the same work (http in → change → http response), installed into a temporary
 * folder by the bench — never a dependency of the project.
 */
export function installNodeRed(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', 'node-red'], { timeout: 300_000 }, (err, _out, stderr) => {
      if (err) reject(new Error(`npm install node-red failed: ${(stderr || err.message).trim().split('\n').slice(-3).join(' ')}`));
      else resolve();
    });
  });
}

// As the editor exports it: nodes without x/y would be taken for config nodes.
const FLOWS = [
  { id: 'tab', type: 'tab', label: 'bench' },
  { id: 'in', type: 'http in', z: 'tab', name: '', url: '/orders', method: 'post', upload: false, swaggerDoc: '', x: 100, y: 80, wires: [['change']] },
  {
    id: 'change',
    type: 'change',
    z: 'tab',
    name: '',
    rules: [{ t: 'set', p: 'payload', pt: 'msg', to: '{"id": payload.id, "customer": payload.customer, "total": payload.price * payload.qty}', tot: 'jsonata' }],
    action: '',
    property: '',
    from: '',
    to: '',
    reg: false,
    x: 300,
    y: 80,
    wires: [['out']],
  },
  { id: 'out', type: 'http response', z: 'tab', name: '', statusCode: '', headers: {}, x: 500, y: 80, wires: [] },
];

export async function startNodeRed(dir: string, core: number): Promise<Started> {
  const port = await freePort();
  const userDir = join(dir, 'user');
  mkdirSync(userDir, { recursive: true });
  writeFileSync(join(userDir, 'flows.json'), JSON.stringify(FLOWS));
  // No editor and no admin API: only the flow's route is served. Info logs only at startup.
  writeFileSync(
    join(userDir, 'settings.js'),
    `module.exports = { uiHost: '127.0.0.1', uiPort: ${port}, httpAdminRoot: false, flowFile: 'flows.json', credentialSecret: false, logging: { console: { level: 'info' } }, editorTheme: { tours: false } };\n`,
  );
  const red = join(dir, 'node_modules', 'node-red', 'red.js');
  const started = await startPinned(core, process.execPath, [red, '--userDir', userDir, '--settings', join(userDir, 'settings.js')], process.env, /(Started flows)/);
  return { ...started, url: `http://127.0.0.1:${port}` };
}

