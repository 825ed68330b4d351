import { parseArgs } from 'node:util';
import { DapWire } from './dap/dap-wire.ts';
import { FlowDebugAdapter } from './dap/flow-debug-adapter.ts';

const USAGE = `usage: flow-studio debug --dap

Speaks the Debug Adapter Protocol on stdin/stdout, for VS Code and any DAP client: launch with
{"program": "<integration folder>"} (or {"program": …, "replay": "<run id>"}), breakpoints on
steps by YAML file and line with conditions, hit counts and log messages; every paused run is a
thread. Nothing but the protocol is written to stdout. See docs/debugging.md for launch.json.`;

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { dap: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    console.error(`flow-studio debug: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    console.error(USAGE);
    return 0;
  }
  if (!parsed.values.dap) {
    console.error(USAGE);
    return 2;
  }
  // stdout is the protocol's: anything else printed there would break the framing.
  console.log = console.error;
  const done = new Promise<number>((resolve) => {
    let adapter: FlowDebugAdapter | undefined = undefined;
    const wire = new DapWire(
      process.stdin,
      process.stdout,
      (message) => void adapter?.handle(message),
      (problem) => console.error(`flow-studio debug: ${problem}`),
    );
    adapter = new FlowDebugAdapter(wire, resolve);
    // The client went away without disconnect: stop as if it had disconnected.
    process.stdin.once('end', () => void adapter?.handle({ seq: 0, type: 'request', command: 'disconnect' } as never));
  });
  return done;
}
