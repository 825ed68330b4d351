import { parseArgs } from 'node:util';
import { LoadError, formatProblem } from '../runtime/core/errors.ts';
import { createLogger, SecretRedactor } from '../runtime/core/logger.ts';
import { discoverIntegrations, readDefinitions } from '../runtime/core/load/integration-files.ts';
import { Runtime } from '../runtime/core/runtime.ts';
import { registry } from '../runtime/registry.ts';

/** Starts every integration under the path and runs until SIGINT/SIGTERM. */
export async function main(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: { 'data-dir': { type: 'string' } } });
  if (positionals.length !== 1) {
    console.error('usage: flow-studio run <file-or-folder>');
    return 2;
  }
  const redactor = new SecretRedactor();
  const log = createLogger({ level: (process.env.LOG_LEVEL as 'info') ?? 'info', redactor });
  const runtimes: Runtime[] = [];
  try {
    for (const files of discoverIntegrations(positionals[0])) {
      const runtime = Runtime.load(readDefinitions(files), { registry, env: process.env, log, redactor });
      runtimes.push(runtime);
    }
  } catch (err) {
    if (!(err instanceof LoadError)) throw err;
    for (const p of err.problems) console.error(formatProblem(p));
    return 1;
  }
  for (const r of runtimes) await r.start();
  for (const r of runtimes) {
    for (const c of r.describe().connectors) if (c.details) log.info(`connector ${c.name} ready`, c.details);
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  log.info('stopping');
  await Promise.all(runtimes.map((r) => r.stop()));
  return 0;
}
