/**
 * Two builds of `flow-studio run` against each other: each round starts the one-route flow with
 * the first build, then with the second, so both meet the same machine (on two cores shared with
 * other work, bench:cold-start's runs of one build and then the other a minute later can differ
 * by more than a change is worth). Prints each build's first answer, CPU to it (nanosecond
 * accounting) and idle RSS, medians and ranges, and the second's per-round ratios to the first.
 *
 * usage: node bin/run-ts.js bench/cold-start/compare.ts <checkout-before> <checkout-after> [--rounds 20] [--embedded]
 *
 * Each checkout needs its build (`npm run build` in it; a `git worktree` of the older commit is
 * the quickest). Without --embedded both talk to one remote platform started from the first.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatRatio, medianOf, pairedRatio } from '../http/paired-ratio.ts';
import { freePort, measureColdStart, oneRouteFlow, stop, type ColdStart } from './first-answer.ts';

const { values: opts, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '20' }, embedded: { type: 'boolean', default: false } } });
if (positionals.length !== 2) {
  console.error('usage: compare.ts <checkout-before> <checkout-after> [--rounds 20] [--embedded]');
  process.exit(2);
}
const builds = positionals.map((dir) => join(resolve(dir), 'dist-electron', 'cli.js'));
const rounds = Number(opts.rounds);
const work = mkdtempSync(join(tmpdir(), 'cold-start-compare-'));

async function main(): Promise<void> {
  let env = process.env;
  let platform: ReturnType<typeof spawn> | undefined;
  if (!opts.embedded) {
    const dataDir = join(work, 'platform');
    const port = await freePort();
    platform = spawn(process.execPath, [builds[0], 'platform', '--port', String(port), '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((ready, fail) => {
      let out = '';
      platform!.stdout!.on('data', (d: Buffer) => ((out += d.toString()), /listening/.test(out) && ready()));
      platform!.once('exit', (code) => fail(new Error(`flow-studio platform exited with ${code}: ${out}`)));
    });
    env = { ...process.env, FLOW_PLATFORM_API_URL: `http://127.0.0.1:${port}`, FLOW_PLATFORM_API_TOKEN: readFileSync(join(dataDir, 'platform.token'), 'utf8').trim() };
  }
  const results: ColdStart[][] = builds.map(() => []);
  const loadBefore = loadavg()[0];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [i, cli] of builds.entries()) {
        const port = await freePort();
        const dir = join(work, `orders-${round}-${i}`);
        mkdirSync(dir);
        writeFileSync(join(dir, 'orders.yaml'), oneRouteFlow(port));
        const args = [cli, 'run', dir, ...(opts.embedded ? ['--data-dir', join(work, `data-${round}-${i}`)] : [])];
        results[i].push(await measureColdStart(process.execPath, args, env, `http://127.0.0.1:${port}/orders`));
      }
      process.stdout.write(`round ${round + 1}/${rounds} done\r`);
    }
  } finally {
    if (platform) await stop(platform);
  }
  const range = (xs: number[], digits = 0): string => `${medianOf(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
  console.log(`\n${opts.embedded ? 'embedded' : 'remote'} platform, ${rounds} rounds, load average ${loadBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)}; medians (range)`);
  for (const [i, dir] of positionals.entries()) {
    const r = results[i];
    console.log(`${dir}: first answer ${range(r.map((x) => x.firstAnswerMs))} ms, CPU ${range(r.map((x) => x.firstAnswerCpuMs))} ms, idle RSS ${range(r.map((x) => x.idleRssMiB), 1)} MiB`);
  }
  const [before, after] = results;
  console.log(
    `after / before, round by round: first answer ${formatRatio(pairedRatio(after, before, (x) => x.firstAnswerMs))}, CPU ${formatRatio(pairedRatio(after, before, (x) => x.firstAnswerCpuMs))}, RSS ${formatRatio(pairedRatio(after, before, (x) => x.idleRssMiB))}`,
  );
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
