/**
 * What a long-running command (`run`, `platform`, `serve`) does on SIGINT and SIGTERM, by the
 * convention of servers: the first signal stops it gracefully (it says so itself); a second one
 * while it is stopping ends it at once, with one line saying what it did not wait for, and the
 * shell's status for a process ended by that signal (130 for SIGINT, 143 for SIGTERM). Before,
 * the handlers were `once`, so the second Ctrl-C killed the process by the signal's default
 * action, without a word.
 *
 * What is forgone is only what was still on its way: every store write already committed is in
 * SQLite's WAL file, which a process exit (even SIGKILL: platform-crash.test.ts) keeps.
 *
 * @example
 * onStopSignals('run', (signal) => stopGracefully(signal), () => `${inFlight()} in-flight runs`);
 */
export function onStopSignals(command: string, stop: (signal: NodeJS.Signals) => void, notWaitedFor: () => string): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals): void => {
    if (!stopping) {
      stopping = true;
      stop(signal);
      return;
    }
    let what: string;
    try {
      what = notWaitedFor();
    } catch {
      what = 'the stop under way';
    }
    // stderr is written synchronously to a pipe, a file and a terminal on Linux, so the line is out before the exit.
    process.stderr.write(`flow-studio ${command}: second ${signal}: stopping now without waiting for ${what}\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
}

