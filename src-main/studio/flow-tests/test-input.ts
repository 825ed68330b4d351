import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { type Runtime } from '../../runtime/index.ts';
import type { FlowTest } from './test-file-loader.ts';
import { scheduleTicks } from './virtual-clock.ts';

/** How the input reaches the flow: a real request to its route, clock ticks, or the message itself. */
export type ResolvedInput =
  | { kind: 'http'; url: string; method: string; headers: Record<string, string>; body: string | Buffer | undefined }
  | { kind: 'schedule'; ticks: number[]; body: unknown }
  | { kind: 'direct'; body: unknown; vars: Record<string, unknown>; from: number; to: number | undefined; at?: string };

type Input = NonNullable<FlowTest['input']>;

/** The test's input (with its fixture folded in) as the runtime will receive it; throws naming what is wrong. */
export function inputOf(test: FlowTest, runtime: Runtime): ResolvedInput {
  const flow = runtime.definition.flows.get(test.flow);
  if (!flow) {
    const flows = [...runtime.definition.flows.keys()];
    const known = flows.length > 0 ? `the flows beside it: ${flows.join(', ')}` : `no definition beside ${basename(test.file)} declares a flow`;
    throw new Error(`test "${test.name}": no flow named "${test.flow}"; ${known}`);
  }
  const input = withFixture(test);
  const steps = flow.runner.steps;
  const stepIndex = (ref: string, what: string): number => {
    const i = /^\d+$/.test(ref) ? Number(ref) : steps.findIndex((s) => s.name === ref);
    if (i < 0 || i >= steps.length) {
      const names = steps.map((s, n) => (s.name ? `${n} (${s.name})` : `${n} (${s.type})`)).join(', ');
      throw new Error(`test "${test.name}": ${what} "${ref}" is not a top-level step of ${test.flow}; its steps: ${names}`);
    }
    return i;
  };
  // A setting path names any step, nested ones too: the run starts inside its branch.
  if (test.from?.startsWith('flows.')) {
    if (!test.from.startsWith(`flows.${test.flow}.`)) throw new Error(`test "${test.name}": from "${test.from}" is not a step of ${test.flow}; a step path starts flows.${test.flow}.`);
    if (test.to !== undefined) throw new Error(`test "${test.name}": to goes with a top-level from (a name or an index); from "${test.from}" runs to the end of the flow`);
    return { kind: 'direct', body: bodyValue(input), vars: { ...input.vars }, from: 0, to: undefined, at: test.from };
  }
  const ranged = test.from !== undefined || test.to !== undefined;
  const from = test.from === undefined ? 0 : stepIndex(test.from, 'from');
  const to = test.to === undefined ? undefined : stepIndex(test.to, 'to') + 1;
  // A range that ends before it starts ran no step and passed whatever it expected.
  if (to !== undefined && to <= from) {
    throw new Error(`test "${test.name}": to "${test.to}" (step ${to - 1}) comes before from "${test.from}" (step ${from}) in ${test.flow}; to names the last step to run`);
  }

  if (!ranged && flow.sourceType === 'http') return httpInput(test, runtime, input);
  if (!ranged && flow.sourceType === 'schedule') {
    const described = (flow.source?.describe?.() ?? {}) as { schedule?: string; timezone?: 'utc' | 'local' };
    const start = test.clock?.start ? Date.parse(test.clock.start) : Date.now();
    return { kind: 'schedule', ticks: scheduleTicks(String(described.schedule), described.timezone, start, test.clock?.advance), body: input.body ?? null };
  }
  return { kind: 'direct', body: bodyValue(input), vars: { ...input.vars }, from, to };
}

function withFixture(test: FlowTest): Input {
  const input: Input = test.input ?? {};
  if (!input.fixture) return input;
  const path = resolve(dirname(test.file), input.fixture);
  let fixture: Input;
  try {
    fixture = parse(readFileSync(path, 'utf8')) as Input;
  } catch (err) {
    throw new Error(`test "${test.name}": fixture ${input.fixture} cannot be read: ${(err as Error).message}`);
  }
  return { ...fixture, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
}

function bodyValue(input: Input): unknown {
  if (input.raw !== undefined) return { contentType: input.contentType, rawData: input.raw };
  if (input.rawBase64 !== undefined) return { contentType: input.contentType, rawData: new Uint8Array(Buffer.from(input.rawBase64, 'base64')) };
  return input.body ?? null;
}

function httpInput(test: FlowTest, runtime: Runtime, input: Input): ResolvedInput {
  type Route = { flow: string; path: string; methods: string[] | 'any'; url?: string };
  let route: Route | undefined;
  let base: string | undefined;
  for (const c of runtime.describe().connectors) {
    const details = c.details as { url?: string; routes?: Route[] } | undefined;
    const found = details?.routes?.find((r) => r.flow === test.flow);
    if (found) {
      route = found;
      base = details?.url;
    }
  }
  if (!route || !base) throw new Error(`test "${test.name}": flow ${test.flow} has an http source but no listening route`);
  const path = input.path ?? (route.path.includes('{') ? undefined : route.path);
  if (path === undefined) throw new Error(`test "${test.name}": input.path is needed: the route ${route.path} has parameters`);
  const method = input.method ?? (Array.isArray(route.methods) ? route.methods[0] : 'GET');
  const headers: Record<string, string> = { ...input.headers };
  const has = (name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name);
  let body: string | Buffer | undefined;
  if (input.raw !== undefined || input.rawBase64 !== undefined) {
    body = input.raw ?? Buffer.from(input.rawBase64!, 'base64');
    if (!has('content-type')) headers['content-type'] = input.contentType!;
  } else if (input.body !== undefined && input.body !== null) {
    const text = typeof input.body === 'string';
    body = text ? (input.body as string) : JSON.stringify(input.body);
    if (!has('content-type')) headers['content-type'] = text ? 'text/plain' : 'application/json';
  }
  return { kind: 'http', url: base + path, method, headers, body };
}
