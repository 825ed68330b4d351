import type { Clock } from '../../../shared/clock.ts';
import { loadDefinition, type LoadedDefinition } from '../core/load/definition-loader.ts';
import { LoadError, formatProblem } from '../core/errors.ts';
import { createLogger, SecretRedactor, type LogRecord } from '../core/logger.ts';
import { Runtime } from '../core/runtime.ts';
import { registry } from '../registry.ts';

/** Test helper: loads YAML text as `flows.yaml`; returns the definition or the problem lines. */
export function loadYaml(text: string, env: Record<string, string> = {}): LoadedDefinition {
  return loadDefinition([{ file: 'flows.yaml', text }], { registry, mode: 'run', env });
}

export function problemsOf(text: string, mode: 'run' | 'validate' = 'validate', env: Record<string, string> = {}): string[] {
  try {
    loadDefinition([{ file: 'flows.yaml', text }], { registry, mode, env });
    return [];
  } catch (err) {
    if (err instanceof LoadError) return err.problems.map(formatProblem);
    throw err;
  }
}

/** A started runtime over the YAML, with its log records captured. */
export async function startYaml(text: string, env: Record<string, string> = {}, clock?: Clock): Promise<{ runtime: Runtime; logs: LogRecord[] }> {
  const logs: LogRecord[] = [];
  const redactor = new SecretRedactor();
  const log = createLogger({ level: 'debug', sinks: [(r) => logs.push(r)], redactor });
  const runtime = Runtime.load([{ file: 'flows.yaml', text }], { registry, env, log, redactor, clock });
  await runtime.start();
  return { runtime, logs };
}
