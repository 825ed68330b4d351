import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

/** Runs the CLI; resolves with its exit code and output. */
function cli(args: string[], env: Record<string, string | undefined> = process.env): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/flow-studio.js', ...args], { cwd: root, env, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr });
    });
  });
}

/** Every environment variable the runtime and `flow-studio run` read: named in their (non-test) source. */
function variablesReadBySource(): string[] {
  const names = new Set<string>();
  const files = readdirSync(join(root, 'src-main/runtime'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.parentPath.includes('testing') && !e.parentPath.includes('test-support'))
    .map((e) => join(e.parentPath, e.name));
  for (const file of [...files, join(root, 'src-main/cli/run.ts'), join(root, 'src-main/cli/run-environment.ts')]) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:env\.|env\('|process\.env\.)([A-Z][A-Z0-9_]{2,})/g)) names.add(m[1]);
  }
  return [...names].sort();
}

const DOCUMENTED = [
  'RUNTIME_SERVICES_MODULE',
  'FLOW_PLATFORM_API_URL',
  'FLOW_PLATFORM_API_TOKEN',
  'FLOW_PLATFORM_API_TOKEN_FILE',
  'FLOW_PLATFORM_API_HEADERS',
  'FLOW_PLATFORM_API_DISCOVERY_BUDGET',
  'FLOW_SNAPSHOT_ID',
  'FLOW_DEPLOYMENT_ID',
  'FLOW_INSTANCE_ID',
  'HTTP_HOST',
  'HTTP_PORT',
  'LOG_LEVEL',
];

describe('the runtime configuration', () => {
  it('names every variable the runtime reads in `flow-studio run --help` and docs/deploying.md, the main ones in its table at a glance', async () => {
    const help = await cli(['run', '--help']);
    expect(help.code).toBe(0);
    const deploying = readFileSync(join(root, 'docs/deploying.md'), 'utf8');
    const read = variablesReadBySource().filter((n) => n !== 'LEVEL');
    expect(read).toEqual(expect.arrayContaining(DOCUMENTED));
    for (const name of read) {
      expect(help.out, `run --help names ${name}`).toContain(name);
      expect(deploying, `docs/deploying.md names ${name}`).toContain(`| \`${name}\` |`);
    }
    const glance = deploying.slice(deploying.indexOf('At a glance'), deploying.indexOf('In detail'));
    for (const name of DOCUMENTED) expect(glance, `docs/deploying.md's table at a glance names ${name}`).toContain(`| \`${name}\` |`);
  });

  it('gives each variable its default in docs/deploying.md', () => {
    const deploying = readFileSync(join(root, 'docs/deploying.md'), 'utf8');
    const row = (name: string) => new RegExp(`^\\| \`${name}\` \\| ([^|]+) \\|`, 'm').exec(deploying)?.[1].trim();
    expect(row('RUNTIME_SERVICES_MODULE')).toBe('`api`');
    expect(row('FLOW_PLATFORM_API_DISCOVERY_BUDGET')).toBe('`30s`');
    expect(row('FLOW_DEPLOYMENT_ID')).toBe('`local`');
    expect(row('FLOW_INSTANCE_ID')).toBe('`<hostname>-<pid>`');
    expect(row('HTTP_HOST')).toBe('`0.0.0.0`');
    expect(row('HTTP_PORT')).toBe('`8080`');
    expect(row('LOG_LEVEL')).toBe('`info`');
  });

  it('refuses a FLOW_TRACE_SATURATED_RATE that is not a rate, naming it, before starting anything', async () => {
    const res = await cli(['run', 'examples/orders-api'], { ...process.env, FLOW_TRACE_SATURATED_RATE: 'lots' });
    expect(res.code).toBe(1);
    expect(res.out).toContain('flow-studio run: FLOW_TRACE_SATURATED_RATE must be a whole number of runs a second (traced while the request thread is saturated) or "all", got "lots"');
    expect(res.out).not.toContain('embedded platform listening');
  });

  it('refuses a FLOW_TRACE_SATURATED_BUDGET that is not a percent, naming it, before starting anything', async () => {
    const res = await cli(['run', 'examples/orders-api'], { ...process.env, FLOW_TRACE_SATURATED_BUDGET: '150%' });
    expect(res.code).toBe(1);
    expect(res.out).toContain('flow-studio run: FLOW_TRACE_SATURATED_BUDGET must be a percent of the CPU from 0 to 100');
    expect(res.out).toContain('got "150%"');
    expect(res.out).not.toContain('embedded platform listening');
  });

  it('refuses a LOG_LEVEL that is not a level, naming it', async () => {
    const res = await cli(['run', 'examples/orders-api'], { ...process.env, LOG_LEVEL: 'loud' });
    expect(res.code).toBe(1);
    expect(res.out).toContain('flow-studio run: LOG_LEVEL="loud" is not a level; use one of debug, info, warn, error');
  });
});
