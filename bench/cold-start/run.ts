/**
 * Cold start of what users deploy: from process start to the first answered request, and the
 * resident memory once idle after it, for `flow-studio run` of a one-route flow (POST /orders →
 * set → the answer, bench/http's flow) from the built JavaScript (`npm run build`, run first here):
 *
 *   - with the embedded platform (a fresh data directory each round, as a new container has),
 *   - with a remote platform (`flow-studio platform`, started once before the rounds),
 *   - from the sources through tsx (the development path, for reference),
 *
 * beside the noise floor (a bare `node -e` http server doing the same work: Node's own start) and
 * Benthos (http_server → mapping → sync_response) when .ci/benthos.sh can build it. Contenders are
 * interleaved round by round; each figure is the median of the rounds (range in brackets), each
 * ratio the median of its per-round ratios.
 *
 * usage: npm run bench:cold-start [-- --rounds 7 --no-benthos --no-sources]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { buildBenthos } from '../http/benthos.ts';
import { medianOf, pairedRatio, formatRatio } from '../http/paired-ratio.ts';
import { freePort, measureColdStart, oneRouteFlow, stop, type ColdStart } from './first-answer.ts';
import { buildCli } from '../../src-main/build/build-cli.ts';

const { values: opts } = parseArgs({
  options: { rounds: { type: 'string', default: '7' }, 'no-benthos': { type: 'boolean', default: false }, 'no-sources': { type: 'boolean', default: false } },
});
const rounds = Number(opts.rounds);
const root = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'cold-start-'));
const node = process.execPath;
// As bin/flow-studio.js starts it where the sources are not (a package, the image).
const built = [join(root, 'dist-electron', 'cli.js')];

const bareServer = (port: number): string => `require('node:http').createServer((req, res) => {
  const chunks = []; req.on('data', (c) => chunks.push(c));
  req.on('end', () => { const b = JSON.parse(Buffer.concat(chunks)); const out = JSON.stringify({ id: b.id, customer: b.customer, total: b.price * b.qty });
    res.writeHead(200, { 'content-type': 'application/json' }).end(out); });
}).listen(${port}, '127.0.0.1'); process.on('SIGTERM', () => process.exit(0));`;
const benthosConfig = (port: number): string => `http: {enabled: false}
input:
  http_server: {address: 127.0.0.1:${port}, path: /orders, allowed_verbs: [POST], sync_response: {headers: {Content-Type: application/json}}}
pipeline:
  processors:
    - mapping: |
        root.id = this.id
        root.customer = this.customer
        root.total = this.price * this.qty
output: {sync_response: {}}
logger: {level: WARN}
`;

/** Writes the one-route integration listening on `port`; returns its folder. */
function integrationOn(port: number): string {
  const dir = join(work, `orders-${port}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'orders.yaml'), oneRouteFlow(port));
  return dir;
}

interface Contender {
  name: string;
  /** The target, when this line has one. */
  target?: { ms: number; rssMiB: number };
  start(round: number): Promise<ColdStart>;
  results: ColdStart[];
}

async function main(): Promise<void> {
  const buildStarted = performance.now();
  await buildCli({ sourceRoot: root });
  console.log(`npm run build: ${Math.round(performance.now() - buildStarted)} ms`);

  const platformDir = join(work, 'platform');
  const platformPort = await freePort();
  const platform = spawn(node, [...built, 'platform', '--port', String(platformPort), '--data-dir', platformDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    platform.stdout!.on('data', (d: Buffer) => ((out += d.toString()), /listening/.test(out) && resolve()));
    platform.once('exit', (code) => reject(new Error(`flow-studio platform exited with ${code}: ${out}`)));
  });
  const remoteEnv = { ...process.env, FLOW_PLATFORM_API_URL: `http://127.0.0.1:${platformPort}`, FLOW_PLATFORM_API_TOKEN: readFileSync(join(platformDir, 'platform.token'), 'utf8').trim() };

  const run = (args: (port: number, round: number) => string[], env: NodeJS.ProcessEnv = process.env) => async (round: number): Promise<ColdStart> => {
    const port = await freePort();
    return measureColdStart(node, args(port, round), env, `http://127.0.0.1:${port}/orders`);
  };
  const contenders: Contender[] = [
    { name: 'noise floor: bare node:http (node -e)', start: run((port) => ['-e', bareServer(port)]), results: [] },
    {
      name: 'flow-studio run, embedded platform (built)',
      target: { ms: 300, rssMiB: 100 },
      start: run((port, round) => [...built, 'run', integrationOn(port), '--data-dir', join(work, `embedded-${round}`)]),
      results: [],
    },
    { name: 'flow-studio run → remote platform (built)', target: { ms: 200, rssMiB: 70 }, start: run((port) => [...built, 'run', integrationOn(port)], remoteEnv), results: [] },
  ];
  if (!opts['no-sources']) {
    const sources = join(root, 'bin', 'flow-studio.js');
    contenders.push({ name: 'flow-studio run, embedded, from sources (tsx; development)', start: run((port, round) => [sources, 'run', integrationOn(port), '--data-dir', join(work, `sources-${round}`)]), results: [] });
  }
  let benthosNote: string | undefined;
  if (opts['no-benthos']) benthosNote = 'Benthos: skipped (--no-benthos)';
  else {
    try {
      const bin = await buildBenthos();
      contenders.push({
        name: 'Benthos 4.60 (http_server → mapping → sync_response)',
        start: async () => {
          const port = await freePort();
          const config = join(work, `benthos-${port}.yaml`);
          writeFileSync(config, benthosConfig(port));
          return measureColdStart(bin, ['-c', config], process.env, `http://127.0.0.1:${port}/orders`);
        },
        results: [],
      });
    } catch (err) {
      benthosNote = `Benthos: not measured (${(err as Error).message})`;
    }
  }

  const loadBefore = loadavg();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const c of contenders) c.results.push(await c.start(round));
      process.stdout.write(`round ${round + 1}/${rounds} done\r`);
    }
  } finally {
    await stop(platform);
  }
  report(contenders, benthosNote, [loadBefore, loadavg()]);
}

function report(contenders: Contender[], benthosNote: string | undefined, load: number[][]): void {
  const floor = contenders[0];
  const benthos = contenders.find((c) => c.name.startsWith('Benthos'));
  const ms = (r: ColdStart): number => r.firstAnswerMs;
  const rss = (r: ColdStart): number => r.idleRssMiB;
  const cpu = (r: ColdStart): number => r.firstAnswerCpuMs;
  const range = (xs: number[], digits = 0): string => `${medianOf(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
  console.log(`\ncold start: process start → first answered POST /orders, and RSS once idle; ${rounds} interleaved rounds, medians (range)`);
  const avg = (l: number[]): string => l.map((x) => x.toFixed(2)).join(' ');
  console.log(`node ${process.version}, ${availableParallelism()} cores, load average ${avg(load[0])} before the rounds, ${avg(load[1])} after: the wall times wait for a core when the machine is busy, the CPU column does not\n`);
  const header = ['contender', 'first answer ms', '× floor', '× Benthos', 'CPU ms to it', '× floor CPU', 'idle RSS MiB', '× floor RSS', 'target'];
  const rows = contenders.map((c) => {
    const times = c.results.map(ms);
    const sizes = c.results.map(rss);
    const t = c.target;
    const verdict = t ? `≤ ${t.ms} ms: ${medianOf(times) <= t.ms ? 'met' : 'MISSED'}; ≤ ${t.rssMiB} MiB: ${medianOf(sizes) <= t.rssMiB ? 'met' : 'MISSED'}` : '';
    return [
      c.name,
      range(times),
      c === floor ? '1.00' : formatRatio(pairedRatio(c.results, floor.results, ms)),
      benthos && c !== benthos ? formatRatio(pairedRatio(c.results, benthos.results, ms)) : '',
      range(c.results.map(cpu)),
      c === floor ? '1.00' : formatRatio(pairedRatio(c.results, floor.results, cpu)),
      range(sizes, 1),
      c === floor ? '1.00' : formatRatio(pairedRatio(c.results, floor.results, rss)),
      verdict,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const r of [header, ...rows]) console.log(r.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd());
  if (benthosNote) console.log(`\n${benthosNote}`);
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
