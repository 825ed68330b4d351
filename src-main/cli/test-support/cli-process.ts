import { spawn, type ChildProcess } from 'node:child_process';

/** What a `flow-studio` command printed and how it ended. */
export interface CliRun {
  /** Its exit code; null when it was stopped by a signal (or by `stopWhen`). */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Both streams in the order they were read; warn and error lines go to stderr, the rest to stdout. */
  output: string;
  /** Whether `stopWhen` stopped it: it got as far as that, which the command under test should not have. */
  stopped: boolean;
}

export interface CliOptions {
  /** Variables on top of this process's, less its FLOW_* and RUNTIME_SERVICES_MODULE. */
  env?: Record<string, string | undefined>;
  /** Stops the command (SIGKILL) once its output satisfies this: a command that would otherwise keep running. */
  stopWhen?: (output: string) => boolean;
}

/**
 * This process's environment without the settings that would steer a command under test (a
 * FLOW_* of the machine running the suite, a services override), plus `extra`.
 */
export function cliEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('FLOW_') || k === 'RUNTIME_SERVICES_MODULE') delete env[k];
  return { ...env, ...extra };
}

/**
 * Runs `flow-studio <args>` from the sources (bin/flow-studio.js, as a user's shell does) to its
 * end. Its output is read to the end of both pipes ('close', not 'exit'): a line written to one
 * just before exiting may otherwise be missed.
 */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const child: ChildProcess = spawn(process.execPath, ['bin/flow-studio.js', ...args], { cwd: process.cwd(), env: cliEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  const run: CliRun = { code: null, stdout: '', stderr: '', output: '', stopped: false };
  const take = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    const text = chunk.toString();
    run[stream] += text;
    run.output += text;
    if (!run.stopped && options.stopWhen?.(run.output)) {
      run.stopped = true;
      child.kill('SIGKILL');
    }
  };
  child.stdout!.on('data', take('stdout'));
  child.stderr!.on('data', take('stderr'));
  return new Promise((resolve) =>
    child.once('close', (code) => {
      run.code = code;
      resolve(run);
    }),
  );
}
