/**
 * `flow-studio <command>`: the headless entry. Each command lives in src-main/cli/ and is loaded
 * only when asked for, so `validate` never pays for the studio or the platform server.
 */
import module from 'node:module';
import { runningBuilt } from '../shared/ts-worker-boot.ts';
import { mapStackTracesLazily } from './cli/lazy-source-maps.ts';

// The built CLI keeps V8's compiled code of the modules it loads from here on between starts
// (Node 22.1+; in NODE_COMPILE_CACHE, else the system's temporary folder, where Node finds it
// stale when a file changed): parsing and compiling them is the largest part of a start after
// Node's own. Node 20 has no such cache.
if (runningBuilt) (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// Its stack traces name the TypeScript sources, each map read when a trace first needs it.
if (runningBuilt) mapStackTracesLazily();

const commands: Record<string, { summary: string; load: () => Promise<{ main(args: string[]): Promise<number> }> }> = {
  validate: { summary: 'validate <path>...   check definitions; print every problem with file:line:col', load: () => import('./cli/validate.ts') },
  run: { summary: 'run <path>           start the flows; stop cleanly on SIGINT/SIGTERM', load: () => import('./cli/run.ts') },
  platform: { summary: 'platform [--port P] [--data-dir D] [--token T]   serve the platform delegation API', load: () => import('./cli/platform.ts') },
  manifest: { summary: 'manifest --platform URL --deployment ID   print a Kubernetes Deployment running that version tag', load: () => import('./cli/manifest.ts') },
  serve: { summary: 'serve [--port P] [--data-dir D] [--open]   open the studio in a browser', load: () => import('./cli/serve.ts') },
  test: { summary: 'test [path] [--reporter junit] [--coverage] [--watch]   run the flow tests (*.test.yaml)', load: () => import('./cli/test.ts') },
  debug: { summary: 'debug --dap          the Debug Adapter Protocol on stdio: breakpoints, stepping and edits in running flows', load: () => import('./cli/debug.ts') },
  gen: { summary: 'gen [--check]        regenerate the JSON Schemas, docs/components.md and the CEL reference in docs/flows.md', load: () => import('./cli/gen.ts') },
};

function usage(): string {
  return ['usage: flow-studio <command> [options]', '', ...Object.values(commands).map((c) => `  ${c.summary}`)].join('\n');
}

const [name, ...args] = process.argv.slice(2);
if (!name || name === '--help' || name === '-h' || name === 'help') {
  console.log(usage());
  process.exit(name ? 0 : 2);
}
const command = commands[name];
if (!command) {
  console.error(`flow-studio: unknown command "${name}"\n\n${usage()}`);
  process.exit(2);
}
try {
  const code = await (await command.load()).main(args);
  if (code !== -1) process.exit(code);
} catch (err) {
  console.error(`flow-studio ${name}: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
