import type { SseFrame } from '../../../shared/request-types.ts';
import { type CompiledCel, type FlowResult, isTrue, toSnapshot, type TraceRecord } from '../../runtime/index.ts';
import { firstDifference, jsonDiff, pathText, valueAt, type JsonPath } from './json-compare.ts';
import type { OutboundCall } from './outside-stand-ins.ts';
import type { FlowTest } from './test-file-loader.ts';

/** One expectation that did not hold. */
export interface Failure {
  /** What was checked, e.g. `response.body`, `outcome`, `kv user/reports/count`. */
  what: string;
  message: string;
  /** Expected vs actual as a line diff, when both are values. */
  diff?: string;
  /** The step where the run diverged: the one that produced the differing value, or failed or dropped the message. */
  step?: string;
  /** True for expectations on the platform, which are re-checked while side effects settle. */
  platform?: boolean;
}

export interface Observed {
  response?: { status: number; headers: Record<string, string>; text: string; sse?: SseFrame[] };
  /** The flow's result when the test handed it the message directly. */
  run?: FlowResult;
  flow: string;
  calls: OutboundCall[];
  events: TraceRecord[];
}

export interface PlatformView {
  published(kind: 'queue' | 'topic'): Array<{ subject: string; body: unknown }>;
  kv(namespace: string, key: string): { version: number; value: unknown } | undefined;
  leaseHeld(name: string): boolean;
}

interface FinalMessage {
  outcome: string;
  body: unknown;
  vars: Record<string, unknown>;
  error?: string;
}

/** Every listed expectation, checked; each failure says what differed and, where it can, at which step. */
export function checkExpectations(test: FlowTest, o: Observed, platform: PlatformView): Failure[] {
  const x = test.expect;
  const failures: Failure[] = [];
  const final = finalMessage(o);
  const steps = o.events.filter((e) => e.kind === 'step');

  const compare = (what: string, root: string, expected: unknown, actual: unknown, subset: boolean, traced: 'body' | 'vars' | undefined) => {
    const at = firstDifference(expected, actual, subset);
    if (!at) return;
    const diffAt = pathText(root, at);
    failures.push({
      what,
      message: `${subset ? 'does not contain the expected value' : 'differs'} at ${diffAt}`,
      diff: jsonDiff(expected, subset ? pick(expected, actual) : actual),
      step: traced ? (steps.some((e) => e.outcome === 'failed') ? stoppedAt(steps) : divergedAt(steps, traced, at)) : undefined,
    });
  };

  if (x.response) {
    const r = o.response;
    if (!r) failures.push({ what: 'response', message: `flow ${test.flow} was not called over HTTP, so there is no response; expect body, vars or outcome instead` });
    else {
      const body = parseText(r.text);
      if (x.response.status !== undefined && x.response.status !== r.status) {
        failures.push({ what: 'response.status', message: `expected ${x.response.status}, got ${r.status}${r.status >= 400 ? `: ${r.text.slice(0, 200)}` : ''}`, step: stoppedAt(steps) });
      }
      for (const [name, value] of Object.entries(x.response.headers ?? {})) {
        const actual = r.headers[name.toLowerCase()];
        if (actual !== value) failures.push({ what: `response.headers.${name}`, message: `expected ${JSON.stringify(value)}, got ${actual === undefined ? 'no such header' : JSON.stringify(actual)}` });
      }
      if (x.response.body !== undefined) compare('response.body', 'body', x.response.body, typeof x.response.body === 'string' ? r.text : body, false, 'body');
      if (x.response.bodyContains !== undefined) compare('response.bodyContains', 'body', x.response.bodyContains, body, true, 'body');
      if (x.response.condition) checkCondition('response.condition', x.response.condition, { status: r.status, headers: r.headers, body }, failures);
    }
  }
  if (x.outcome !== undefined && x.outcome !== final?.outcome) {
    failures.push({ what: 'outcome', message: `expected ${x.outcome}, got ${final?.outcome ?? 'no run'}${final?.error ? ` (${final.error})` : ''}`, step: stoppedAt(steps) });
  }
  if (x.error !== undefined && !(final?.error ?? '').includes(x.error)) {
    failures.push({ what: 'error', message: `expected a failure containing ${JSON.stringify(x.error)}, got ${final?.error ? JSON.stringify(final.error) : 'none'}`, step: stoppedAt(steps) });
  }
  if (x.body !== undefined) compare('body', 'body', x.body, final?.body, false, 'body');
  if (x.bodyContains !== undefined) compare('bodyContains', 'body', x.bodyContains, final?.body, true, 'body');
  if (x.vars !== undefined) compare('vars', 'vars', x.vars, final?.vars, true, 'vars');
  if (x.condition) checkCondition('condition', x.condition, { body: final?.body ?? null, vars: final?.vars ?? {} }, failures);
  if (x.sse !== undefined) {
    const expected = x.sse.map((f) => ({ event: f.event ?? 'message', data: f.data }));
    const actual = (o.response?.sse ?? []).map((f, i) => ({ event: f.event ?? 'message', data: typeof expected[i]?.data === 'string' ? f.data : parseText(f.data) }));
    compare('sse', 'frames', expected, actual, false, undefined);
  }
  if (x.calls !== undefined) {
    const expected = x.calls.map((c) => ({ method: c.method, path: c.path, ...(c.bodyContains === undefined ? {} : { body: c.bodyContains }) }));
    const actual = o.calls.map((c, i) => ({
      method: c.method,
      path: expected[i]?.path.includes('?') ? c.path : c.path.split('?')[0],
      ...(expected[i] && 'body' in expected[i] ? { body: c.body } : {}),
    }));
    compare('calls', 'calls', expected, actual, true, undefined);
  }

  for (const kind of ['queue', 'topic'] as const) {
    const expected = x[kind];
    if (!expected) continue;
    const subjects = new Set(expected.map((m) => m.subject));
    const actual = platform.published(kind).filter((m) => subjects.has(m.subject));
    const at = firstDifference(expected.map(stripUndefined), actual, true);
    if (at) failures.push({ what: kind, message: `${kind} publishes differ at ${pathText(kind, at)}`, diff: jsonDiff(expected, actual), platform: true });
  }
  for (const e of x.kv ?? []) {
    const actual = platform.kv(e.namespace, e.key);
    const what = `kv ${e.namespace}/${e.key}`;
    if (e.value === null && actual) failures.push({ what, message: `expected no entry, found version ${actual.version}`, platform: true });
    else if (e.value !== null && !actual) failures.push({ what, message: 'expected an entry, found none', platform: true });
    else if (actual && e.value !== undefined && e.value !== null && firstDifference(e.value, actual.value, false)) {
      failures.push({ what, message: 'value differs', diff: jsonDiff(e.value, actual.value), platform: true });
    } else if (actual && e.version !== undefined && e.version !== actual.version) {
      failures.push({ what, message: `expected version ${e.version}, found ${actual.version}`, platform: true });
    }
  }
  for (const l of x.leases ?? []) {
    const held = platform.leaseHeld(l.name);
    if (held !== l.held) failures.push({ what: `lease ${l.name}`, message: `expected ${l.held ? 'held' : 'free'}, found ${held ? 'held' : 'free'}`, platform: true });
  }
  return failures;
}

function finalMessage(o: Observed): FinalMessage | undefined {
  if (o.run) {
    return { outcome: o.run.outcome, body: toSnapshot(o.run.message.body), vars: toSnapshot(o.run.message.vars) as Record<string, unknown>, error: o.run.error?.message };
  }
  // The outermost run of the flow finishes last (a flow-ref'd run of another flow ends before it).
  const run = o.events.filter((e) => e.kind === 'run' && e.flow === o.flow).at(-1);
  if (!run) return undefined;
  const out = (run.output ?? {}) as { body?: unknown; vars?: Record<string, unknown> };
  return { outcome: run.outcome, body: out.body ?? null, vars: out.vars ?? {}, error: run.error };
}

/** The step that failed or dropped the message, when one did. */
function stoppedAt(steps: TraceRecord[]): string | undefined {
  const stop = steps.find((e) => e.outcome !== 'completed');
  return stop ? stepLabel(stop) : steps.at(-1) ? `${stepLabel(steps.at(-1)!)} (the last step that ran)` : undefined;
}

/** The last step that changed the value at `path` of the body or vars: where actual went its own way. */
function divergedAt(steps: TraceRecord[], root: 'body' | 'vars', path: JsonPath): string | undefined {
  const changed = (e: TraceRecord): boolean => {
    const before = valueAt((e.input as Record<string, unknown> | undefined)?.[root], path);
    const after = valueAt((e.output as Record<string, unknown> | undefined)?.[root], path);
    return e.output !== undefined && JSON.stringify(before) !== JSON.stringify(after);
  };
  let found: TraceRecord | undefined;
  // A switch or lock reports after the steps inside it: look inside the last changer for the step that did it.
  for (let i = steps.length - 1; i >= 0; i--) {
    const e = steps[i];
    if (found && !e.step?.startsWith(`${found.step}.`)) continue;
    if (changed(e)) found = e;
  }
  if (found) return stepLabel(found);
  return steps.length ? 'no step changed it: it came with the input' : undefined;
}

function stepLabel(e: TraceRecord): string {
  return `${e.step}${e.name ? ` (${e.name})` : ` (${e.block})`}`;
}

function checkCondition(what: string, cel: CompiledCel, activation: Record<string, unknown>, failures: Failure[]): void {
  try {
    const v = cel.evaluate(activation);
    if (!isTrue(v)) failures.push({ what, message: `${cel.source} is ${JSON.stringify(v)}` });
  } catch (err) {
    failures.push({ what, message: `${cel.source} cannot be evaluated: ${(err as Error).message}` });
  }
}

function parseText(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The actual value restricted to the keys the expectation names, so a subset diff shows only what matters. */
function pick(expected: unknown, actual: unknown): unknown {
  if (expected === null || typeof expected !== 'object' || actual === null || typeof actual !== 'object') return actual;
  if (Array.isArray(expected)) return Array.isArray(actual) ? actual.map((a, i) => (i < expected.length ? pick(expected[i], a) : a)) : actual;
  const a = actual as Record<string, unknown>;
  return Object.fromEntries(Object.keys(expected as object).filter((k) => k in a).map((k) => [k, pick((expected as Record<string, unknown>)[k], a[k])]));
}

function stripUndefined<T extends object>(v: T): T {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as T;
}
