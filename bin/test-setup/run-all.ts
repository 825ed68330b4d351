// `npm test`: sets up what the suites need (a Chromium, FerretDB, PostgreSQL where its script
// exists), runs every suite (Vitest, then Playwright e2e) whatever the other did, stops the
// servers it started, and ends with one line summing them all: `N passed, N failed, N skipped`.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { findBrowser, installPlan, isDebianLike, noBrowserMessage, type BrowserProbe, type FoundBrowser, type InstallHost } from './browser.ts';
import { errorLine, lastLine, planService, testServices, uriFromOutput, type ServicePlan, type TestService } from './services.ts';
import { ensureRendererBuilt } from '../../src-main/studio/web/renderer-build.ts';
import { aptInstallCommands, missingToolLine, testTools } from './tools.ts';
import { failedE2eLines, failedVitestLines, type PlaywrightFailureSuite, type VitestFailureReport } from './failed-tests.ts';
import { ranElsewhereLine, skippedE2eLines, skipLines, skippedByFile, type PlaywrightSuite, type VitestReport } from './skipped-tests.ts';

const root = process.cwd();
const out = 'test-results';
const args = process.argv.slice(2);
const say = (line: string) => console.log(`npm test: ${line}`);
mkdirSync(out, { recursive: true });

const realProbe: BrowserProbe = {
  env: process.env,
  exists: existsSync,
  which(command) {
    const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
    const path = found.stdout.trim();
    return found.status === 0 && path.startsWith('/') ? path : undefined;
  },
  playwrightChromium() {
    try {
      return chromium.executablePath();
    } catch {
      return undefined; // a platform Playwright has no build for
    }
  },
};

const host: InstallHost = {
  uid: process.getuid?.(),
  osRelease: existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '',
  hasAptGet: !!realProbe.which('apt-get'),
};

/** A browser that exists but does not start (Ubuntu's snap stub in a container) is no browser. */
function runs(browser: FoundBrowser): boolean {
  return spawnSync(browser.path, ['--headless', '--no-sandbox', '--version'], { timeout: 30_000, stdio: 'ignore' }).status === 0;
}

function ensureBrowser(): FoundBrowser | undefined {
  const found = findBrowser(realProbe);
  if (found && 'error' in found) {
    console.error(`npm test: ${found.error}; point it at a Chromium binary or unset it`);
    console.log('0 passed, 1 failed, 0 skipped');
    process.exit(1);
  }
  if (found && runs(found)) return found;
  if (found) say(`${found.path} (${found.source}) does not start; installing a Chromium`);
  const log = join(out, 'browser-install.log');
  rmSync(log, { force: true });
  for (const step of installPlan(host)) {
    say(`no Chromium found; installing ${step.label} (log: ${log})`);
    const ok = step.commands.every((command) => {
      const run = spawnSync(command[0], command.slice(1), { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
      appendFileSync(log, `$ ${command.join(' ')}\n${run.stdout ?? ''}${run.stderr ?? ''}\n`);
      if (run.status !== 0) say(`\`${command.join(' ')}\` failed: ${errorLine(`${run.stderr ?? ''}${run.error?.message ?? ''}`)}`);
      return run.status === 0;
    });
    if (!ok) continue;
    const installed = findBrowser(realProbe);
    if (installed && !('error' in installed) && runs(installed)) return installed;
  }
  return undefined;
}

interface StartedService {
  service: TestService;
  runDir: string;
}

/** Runs `bash <script> start RUN_DIR`, showing its progress (a first FerretDB build takes minutes). */
function startService(service: TestService, runDir: string): Promise<{ uri?: string; reason: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [service.script, 'start', runDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      process.stderr.write(chunk);
    });
    child.on('error', (error) => resolve({ reason: error.message }));
    child.on('close', (code) => {
      const uri = uriFromOutput(stdout, service.uriPrefix);
      resolve(code === 0 && uri ? { uri, reason: '' } : { reason: `${service.script} start exited ${code}: ${lastLine(stderr)}` });
    });
  });
}

/** Runs the service's prepare step, its output in test-results/; a failure is the start's to report. */
function prepareService(service: TestService): Promise<void> {
  const log = join(out, `${service.name.toLowerCase()}-prepare.log`);
  say(`${service.name}: preparing in the background (bash ${service.script} ${service.prepare!.join(' ')}; log: ${log})`);
  return new Promise((resolve) => {
    const child = spawn('bash', [service.script, ...service.prepare!], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => {
      appendFileSync(log, `${error.message}\n`);
      resolve();
    });
    child.on('close', () => {
      appendFileSync(log, output);
      resolve();
    });
  });
}

/**
 * Builds the studio UI when its build is missing or stale, for a whole run only (`npm test -- <paths>`
 * may start no studio). A failure is left to the suites that need the UI to report.
 */
async function buildRenderer(): Promise<void> {
  if (args.length > 0) return;
  try {
    await ensureRendererBuilt(root, say);
  } catch (error) {
    say(`building the studio UI failed (${errorLine(error instanceof Error ? error.message : String(error))}); the suites that start a studio try again`);
  }
}

const started: StartedService[] = [];
function stopServices(): void {
  for (const { service, runDir } of started.splice(0)) {
    spawnSync('bash', [service.script, 'stop', runDir], { stdio: 'ignore' });
    rmSync(runDir, { recursive: true, force: true });
  }
}
process.on('exit', stopServices);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

const env: Record<string, string | undefined> = { ...process.env };
const notes: string[] = [];
const failures: string[] = [];
const skipReasons: Array<{ testPaths: string[]; reason: string }> = [];

// A server that is built from source (FerretDB, with Go: minutes on a fresh machine) builds while
// apt-get installs the tools and the browser; its start below waits for its own build only.
const prepared = new Map(
  testServices
    .filter((service) => service.prepare && planService(service, env, existsSync).action === 'start')
    .map((service) => [service, prepareService(service)]),
);

// The tools the suites drive as a user would (curl, strace): installed with apt-get when missing.
const missingTools = () => testTools.filter((tool) => !realProbe.which(tool.command));
if (missingTools().length > 0 && host.uid === 0 && host.hasAptGet && isDebianLike(host.osRelease)) {
  const packages = missingTools().map((tool) => tool.aptPackage);
  say(`installing ${packages.join(', ')} with apt-get (log: ${join(out, 'tools-install.log')})`);
  for (const command of aptInstallCommands(missingTools())) {
    const run = spawnSync(command[0], command.slice(1), { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    appendFileSync(join(out, 'tools-install.log'), `$ ${command.join(' ')}\n${run.stdout ?? ''}${run.stderr ?? ''}\n`);
    if (run.status !== 0) {
      say(`\`${command.join(' ')}\` failed: ${errorLine(`${run.stderr ?? ''}${run.error?.message ?? ''}`)}`);
      break;
    }
  }
}
for (const tool of missingTools()) {
  if (tool.required) {
    console.error(missingToolLine(tool));
    console.log('0 passed, 1 failed, 0 skipped');
    process.exit(1);
  }
  say(missingToolLine(tool));
  skipReasons.push({ testPaths: tool.testPaths, reason: `${tool.command} not installed` });
}

const browser = ensureBrowser();
if (!browser) {
  console.error(noBrowserMessage);
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
}
env.CHROMIUM_PATH = browser.path;
say(`browser: ${browser.path} (${browser.source})`);

// The studio UI is built once here, while the servers start, rather than by the first suite that
// starts a studio (a test's time, on a clean clone) or by the e2e's global set-up.
const rendererBuilt = buildRenderer();

interface ServiceStart {
  service: TestService;
  plan: ServicePlan;
  runDir?: string;
  result?: { uri?: string; reason: string };
}
// The servers start side by side: PostgreSQL's initdb does not wait for FerretDB's build.
const starts = testServices.map(async (service): Promise<ServiceStart> => {
  const plan = planService(service, env, existsSync);
  if (plan.action !== 'start') return { service, plan };
  await prepared.get(service);
  const runDir = mkdtempSync(join(tmpdir(), `flow-studio-test-${service.name.toLowerCase()}-`));
  say(`${service.name}: starting (${service.script})`);
  return { service, plan, runDir, result: await startService(service, runDir) };
});
for (const { service, plan, runDir, result } of await Promise.all(starts)) {
  if (plan.action === 'absent') continue;
  if (plan.action === 'from-env') {
    say(`${service.name}: using ${service.envVar} from the environment`);
    continue;
  }
  if (!runDir || !result) continue;
  if (result.uri) {
    started.push({ service, runDir });
    env[service.envVar] = result.uri;
    say(`${service.name}: listening; ${service.envVar} is set for the suites`);
  } else {
    spawnSync('bash', [service.script, 'stop', runDir], { stdio: 'ignore' });
    rmSync(runDir, { recursive: true, force: true });
    const reason = `${service.name} could not be started (${result.reason}); ${service.remedy}`;
    notes.push(reason);
    skipReasons.push({ testPaths: service.testPaths, reason: `${service.name} not running` });
    say(reason);
  }
}

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}
interface PlaywrightReport {
  stats: { expected: number; unexpected: number; skipped: number; flaky?: number };
  suites?: Array<PlaywrightSuite & PlaywrightFailureSuite>;
}
const suites = [
  {
    name: 'vitest',
    report: `${out}/vitest.json`,
    command: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}/vitest.json`, ...args],
    count: (r: VitestReport & VitestFailureReport & { numPassedTests: number; numFailedTests: number; numRuntimeErrorTests?: number; numPendingTests: number; numTodoTests: number }): Counts => {
      const { skipped, ranElsewhere } = skippedByFile(r, root);
      notes.push(...skipLines(skipped, skipReasons), ...ranElsewhereLine(ranElsewhere));
      failures.push(...failedVitestLines(r, root));
      return { passed: r.numPassedTests, failed: r.numFailedTests + (r.numRuntimeErrorTests ?? 0), skipped: r.numPendingTests + r.numTodoTests };
    },
  },
  {
    name: 'playwright',
    enabled: existsSync('playwright.config.ts') && args.length === 0,
    report: `${out}/e2e-results.json`,
    command: ['npx', 'playwright', 'test'],
    count: (r: PlaywrightReport): Counts => {
      notes.push(...skippedE2eLines(r));
      failures.push(...failedE2eLines(r));
      return { passed: r.stats.expected + (r.stats.flaky ?? 0), failed: r.stats.unexpected, skipped: r.stats.skipped };
    },
  },
];

await rendererBuilt;
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
const lines: string[] = [];
for (const suite of suites) {
  if (suite.enabled === false) continue;
  rmSync(suite.report, { force: true });
  const run = spawnSync(suite.command[0], suite.command.slice(1), { stdio: 'inherit', env });
  let counts: Counts;
  try {
    counts = suite.count(JSON.parse(readFileSync(suite.report, 'utf8')));
  } catch {
    lines.push(`${suite.name}: no report at ${suite.report} (exit ${run.status}); counting the suite as failed`);
    total.failed += 1;
    continue;
  }
  if (run.status !== 0 && counts.failed === 0) {
    lines.push(`${suite.name}: exited ${run.status} with no failed test; counting that as a failure`);
    counts.failed = 1;
  }
  lines.push(`${suite.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
stopServices();
for (const line of [...lines, ...notes, ...failures]) console.log(line);
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
