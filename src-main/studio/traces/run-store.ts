import type { RunOrigin, RunPage, RunQuery, RunSummary } from '../../../shared/trace-types.ts';
import { type TraceEvent, type TraceSpan } from '../../runtime/index.ts';
import { approxSize } from './value-view.ts';
import { BoundedMap } from '../../../shared/bounded-map.ts';
import { GroupIndex } from '../../../shared/group-index.ts';

/** One step as recorded, with the message before and after when snapshots were on. */
export interface StoredStep {
  step: string;
  block?: string;
  name?: string;
  startedAt: number;
  durationMs: number;
  outcome: TraceEvent['outcome'];
  error?: string;
  input?: unknown;
  output?: unknown;
}

export interface StoredDetail {
  steps: StoredStep[];
  calls: TraceSpan[];
  input?: unknown;
  output?: unknown;
  snapshots: boolean;
  bytes: number;
}

interface RunRecord {
  summary: RunSummary;
  /** The start of the request body as text, so a run can be found by what was sent. */
  body: string;
  /** Its steps' names, blocks and errors, kept as text when the steps themselves are dropped. */
  stepText?: string;
  /** Steps and messages; dropped for old runs to keep memory bounded (the summary stays). */
  detail?: StoredDetail;
}

interface Pending {
  integration: string;
  steps: StoredStep[];
  calls: TraceSpan[];
}

/** What a captured request tells about the run it started. */
export interface RunRequestInfo {
  captureId: number;
  status: number;
  route?: string;
  /** The requested path without its query. */
  path?: string;
  method: string;
  startedAt: number;
}

export interface RunStoreOptions {
  /** Runs kept (up to a tenth more between evictions); the oldest go first. */
  maxRuns?: number;
  /** Runs that keep their steps and messages. */
  maxDetailedRuns?: number;
  /** Rough bytes of messages kept across all runs. */
  maxDetailBytes?: number;
}

const MAX_PENDING_RUNS = 10_000;
const BODY_TEXT_CHARS = 2_000;

/**
 * Every run the studio's runtimes traced, newest last: a summary of each (flow, route, status,
 * outcome, duration), and for the newest ones their steps with the message before and after
 * each. Bounded by count and by bytes. A text filter tests each run's own fields with one
 * case-insensitive pattern: no text is built per run, so a run costs nothing until searched and
 * 100,000 runs answer in tens of milliseconds; the last result is kept for paging.
 */
export class RunStore {
  private runs: RunRecord[] = [];
  private readonly byId = new Map<string, RunRecord>();
  private readonly byCorrelation = new GroupIndex<RunRecord>();
  /** Runs by W3C trace id, so a run links to the others of its trace (publisher and consumers). */
  private readonly byTrace = new GroupIndex<RunRecord>();
  private readonly byCapture = new Map<number, RunRecord>();
  private readonly flowCounts = new Map<string, number>();
  /**
   * Steps of runs not yet ended. A plain Map: entries come and go within a run, and the bound
   * below is reached only by runs that never report their end.
   */
  private readonly pending = new Map<string, Pending>();
  /** Requests whose run had not finished when they were captured (a stream the caller left). */
  private readonly awaiting = new BoundedMap<string, RunRequestInfo>(MAX_PENDING_RUNS);
  private detailed: RunRecord[] = [];
  private detailHead = 0;
  private detailBytes = 0;
  private version = 0;
  private cache: { key: string; version: number; matches: RunRecord[] } | undefined;
  private readonly maxRuns: number;
  private readonly maxDetailedRuns: number;
  private readonly maxDetailBytes: number;
  private readonly listeners = new Set<() => void>();
  /** Each running runtime's count of runs it left untraced, with its value when counting began. */
  private readonly untraced = new Map<() => number, { integration: string; from: number }>();
  /** Untraced runs of runtimes no longer counted (stopped, reloaded), by integration. */
  private readonly untracedBefore = new Map<string, number>();

  constructor(options: RunStoreOptions = {}) {
    this.maxRuns = options.maxRuns ?? 100_000;
    this.maxDetailedRuns = options.maxDetailedRuns ?? 5_000;
    this.maxDetailBytes = options.maxDetailBytes ?? 128 * 1024 * 1024;
  }

  get size(): number {
    return this.runs.length;
  }

  /**
   * Counts the runs a runtime of `integration` answered without tracing (`read`: its running
   * total). Returns what stops counting; what it counted until then stays in the totals.
   */
  countUntraced(integration: string, read: () => number): () => void {
    this.untraced.set(read, { integration, from: read() });
    return () => {
      const counting = this.untraced.get(read);
      if (!counting) return;
      this.untraced.delete(read);
      this.untracedBefore.set(integration, (this.untracedBefore.get(integration) ?? 0) + read() - counting.from);
    };
  }

  /** Runs left untraced since the store began or was cleared: of one integration, or of all. */
  notTraced(integration?: string): number {
    let n = 0;
    for (const [name, count] of this.untracedBefore) if (integration === undefined || name === integration) n += count;
    for (const [read, c] of this.untraced) if (integration === undefined || c.integration === integration) n += read() - c.from;
    return n;
  }

  /** Called after runs are added or changed (not per step). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Takes one trace event of a runtime of `integration`; a run event completes its run. */
  record(integration: string, e: TraceEvent): void {
    if (e.kind === 'step') {
      this.pendingOf(e.runId, integration).steps.push(storedStep(e));
      return;
    }
    const pending = this.pending.get(e.runId);
    this.pending.delete(e.runId);
    const steps = pending?.steps ?? [];
    const calls = pending?.calls ?? [];
    const snapshots = e.input !== undefined || steps.some((s) => s.input !== undefined);
    const summary: RunSummary = {
      runId: e.runId,
      integration,
      flow: e.flow,
      correlationId: e.correlationId,
      outcome: e.outcome,
      startedAt: e.startedAt,
      durationMs: e.durationMs,
      steps: steps.length,
    };
    if (e.error !== undefined) summary.error = e.error;
    if (e.traceId !== undefined) summary.traceId = e.traceId;
    const detail: StoredDetail = { steps, calls, input: e.input, output: e.output, snapshots, bytes: 0 };
    let bytes = approxSize(e.input) + approxSize(e.output);
    for (const s of steps) bytes += approxSize(s.input) + approxSize(s.output);
    detail.bytes = bytes;
    const record: RunRecord = { summary, body: bodyText(e.input), detail };
    const request = this.awaiting.get(e.correlationId);
    if (request && request.startedAt <= e.startedAt + 1) {
      this.awaiting.delete(e.correlationId);
      applyRequest(record, request);
      this.byCapture.set(request.captureId, record);
    }
    this.add(record);
  }

  /** Takes a call a step made; it is placed under its step when the run is read. */
  recordSpan(integration: string, span: TraceSpan): void {
    this.pendingOf(span.runId, integration).calls.push(span);
  }

  /** Adds a finished run without steps (tests seed the store this way). */
  addSummary(summary: RunSummary, bodyHint = ''): void {
    this.add({ summary, body: bodyHint });
  }

  /**
   * Links a captured request to the run it started (same correlation id, started at or after the
   * request); the run gains the route and status. A run still going is linked when it ends.
   */
  linkRequest(correlationId: string, flow: string | undefined, info: RunRequestInfo): string | undefined {
    const candidates = this.byCorrelation.get(correlationId);
    for (let i = candidates.length - 1; i >= 0; i--) {
      const r = candidates[i];
      if (r.summary.captureId !== undefined || (flow !== undefined && r.summary.flow !== flow)) continue;
      if (r.summary.startedAt + 1 < info.startedAt) break;
      applyRequest(r, info);
      this.byCapture.set(info.captureId, r);
      this.changed();
      return r.summary.runId;
    }
    this.awaiting.set(correlationId, info);
    return undefined;
  }

  /** Notes where a run came from (a re-run's origin, a flow test's name); the list shows and searches it. */
  markRun(runId: string, origin: Pick<RunSummary, 'forkedFrom' | 'forkedAt' | 'test'>): void {
    const r = this.byId.get(runId);
    if (!r) return;
    Object.assign(r.summary, origin);
    this.changed();
  }

    runIdForCapture(captureId: number): string | undefined {
    return this.byCapture.get(captureId)?.summary.runId;
  }

  summary(runId: string): RunSummary | undefined {
    return this.byId.get(runId)?.summary;
  }

  /** The other stored runs of a run's trace, oldest first. */
  sameTrace(runId: string): RunSummary[] {
    const traceId = this.byId.get(runId)?.summary.traceId;
    if (traceId === undefined) return [];
    return this.byTrace
      .get(traceId)
      .filter((r) => r.summary.runId !== runId)
      .map((r) => r.summary)
      .sort((a, b) => a.startedAt - b.startedAt);
  }

  detail(runId: string): { summary: RunSummary; detail: StoredDetail | undefined } | undefined {
    const r = this.byId.get(runId);
    return r && { summary: r.summary, detail: r.detail };
  }

  query(q: RunQuery): RunPage {
    const t0 = performance.now();
    const matches = this.matching(q);
    const offset = Math.max(0, Math.floor(q.offset));
    const limit = Math.max(0, Math.min(1_000, Math.floor(q.limit)));
    const rows = matches.slice(offset, offset + limit).map((r) => r.summary);
    return {
      total: matches.length,
      stored: this.runs.length,
      offset,
      rows,
      flows: [...this.flowCounts.keys()].sort(),
      tookMs: performance.now() - t0,
      notTraced: this.notTraced(q.integration || undefined),
    };
  }

  clear(): void {
    this.runs = [];
    this.byId.clear();
    this.byCorrelation.clear();
    this.byTrace.clear();
    this.byCapture.clear();
    this.flowCounts.clear();
    this.awaiting.clear();
    this.detailed = [];
    this.detailHead = 0;
    this.detailBytes = 0;
    this.untracedBefore.clear();
    for (const [read, c] of this.untraced) c.from = read();
    this.changed();
  }

  /** Newest first; the same filters over an unchanged store reuse the last answer. */
  private matching(q: RunQuery): RunRecord[] {
    const key = JSON.stringify([q.integration, q.flow, q.outcome, q.status, q.text?.trim().toLowerCase(), q.origin]);
    if (this.cache && this.cache.key === key && this.cache.version === this.version) return this.cache.matches;
    const text = q.text?.trim() ? new TextQuery(q.text.trim()) : undefined;
    const status = statusTest(q.status);
    const out: RunRecord[] = [];
    for (let i = this.runs.length - 1; i >= 0; i--) {
      const r = this.runs[i];
      const s = r.summary;
      if (q.flow && s.flow !== q.flow) continue;
      if (q.integration && s.integration !== q.integration) continue;
      if (q.outcome && s.outcome !== q.outcome) continue;
      if (status && !status(s.status)) continue;
      if (q.origin && originOf(s) !== q.origin) continue;
      if (text && !matchesText(r, text)) continue;
      out.push(r);
    }
    this.cache = { key, version: this.version, matches: out };
    return out;
  }

  private add(record: RunRecord): void {
    const s = record.summary;
    this.runs.push(record);
    this.byId.set(s.runId, record);
    this.byCorrelation.add(s.correlationId, record);
    if (s.traceId !== undefined) this.byTrace.add(s.traceId, record);
    this.flowCounts.set(s.flow, (this.flowCounts.get(s.flow) ?? 0) + 1);
    if (record.detail) {
      this.detailed.push(record);
      this.detailBytes += record.detail.bytes;
      this.trimDetail();
    }
    // Up to a tenth more is let in before the oldest go, so eviction costs one array copy per
    // 10,000 runs, not one per run; then the store is back at maxRuns.
    if (this.runs.length > this.maxRuns + Math.floor(this.maxRuns / 10)) this.evict(this.runs.length - this.maxRuns);
    this.changed();
  }

  private evict(count: number): void {
    const gone = this.runs.slice(0, count);
    this.runs = this.runs.slice(count);
    for (const r of gone) {
      const s = r.summary;
      this.byId.delete(s.runId);
      this.byCorrelation.remove(s.correlationId, r);
      if (s.traceId !== undefined) this.byTrace.remove(s.traceId, r);
      if (s.captureId !== undefined) this.byCapture.delete(s.captureId);
      const n = (this.flowCounts.get(s.flow) ?? 1) - 1;
      if (n <= 0) this.flowCounts.delete(s.flow);
      else this.flowCounts.set(s.flow, n);
      if (r.detail) {
        this.detailBytes -= r.detail.bytes;
        r.detail = undefined;
      }
    }
  }

  private trimDetail(): void {
    while (this.detailed.length - this.detailHead > this.maxDetailedRuns || (this.detailBytes > this.maxDetailBytes && this.detailed.length - this.detailHead > 1)) {
      const oldest = this.detailed[this.detailHead++];
      if (oldest.detail) {
        // Its steps' names and errors stay searchable after the steps are gone.
        oldest.stepText = stepTextOf(oldest.detail.steps);
        this.detailBytes -= oldest.detail.bytes;
        oldest.detail = undefined;
      }
    }
    if (this.detailHead > 1_000) {
      this.detailed = this.detailed.slice(this.detailHead);
      this.detailHead = 0;
    }
  }

  private pendingOf(runId: string, integration: string): Pending {
    let p = this.pending.get(runId);
    if (!p) {
      p = { integration, steps: [], calls: [] };
      // Bounded: a run that never reports its end (its runtime was cut off) must not hold memory
      // forever. The oldest goes; its steps are lost, as a run with no end has no record to join.
      if (this.pending.size >= MAX_PENDING_RUNS) this.pending.delete(this.pending.keys().next().value!);
      this.pending.set(runId, p);
    }
    return p;
  }

  private changed(): void {
    this.version++;
    for (const l of this.listeners) l();
  }
}

function storedStep(e: TraceEvent): StoredStep {
  const s: StoredStep = { step: e.step ?? '', startedAt: e.startedAt, durationMs: e.durationMs, outcome: e.outcome };
  if (e.block !== undefined) s.block = e.block;
  if (e.name !== undefined) s.name = e.name;
  if (e.error !== undefined) s.error = e.error;
  if (e.input !== undefined) s.input = e.input;
  if (e.output !== undefined) s.output = e.output;
  return s;
}

function applyRequest(record: RunRecord, info: RunRequestInfo): void {
  record.summary.captureId = info.captureId;
  record.summary.status = info.status;
  record.summary.method = info.method;
  if (info.route !== undefined) record.summary.route = info.route;
  if (info.path !== undefined) record.summary.path = info.path;
}

/** A text filter: where the query occurs, ignoring case, as a literal. */
class TextQuery {
  private readonly pattern: RegExp;
  private readonly length: number;

  constructor(text: string) {
    this.pattern = new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
    this.length = text.length;
  }

  /** A field shorter than the query cannot hold it: most are, and a length costs less than a match. */
  in(field: string | undefined): boolean {
    return field !== undefined && field.length >= this.length && this.pattern.test(field);
  }
}

/** Whether the text occurs in one of the run's fields (never across two): tested field by field, building nothing. */
function matchesText(record: RunRecord, text: TextQuery): boolean {
  const s = record.summary;
  if (text.in(s.flow) || text.in(s.integration) || text.in(s.outcome) || text.in(s.correlationId) || text.in(s.runId) || text.in(s.route) || text.in(s.path)) return true;
  if (text.in(s.method) || (s.status !== undefined && text.in(String(s.status))) || text.in(s.error) || text.in(s.traceId) || text.in(s.test)) return true;
  if (record.detail) {
    for (const step of record.detail.steps) if (text.in(step.name) || text.in(step.block) || text.in(step.error)) return true;
  } else if (text.in(record.stepText)) return true;
  return text.in(record.body);
}

function stepTextOf(steps: readonly StoredStep[]): string | undefined {
  const parts: string[] = [];
  for (const step of steps) {
    if (step.name) parts.push(step.name);
    if (step.block) parts.push(step.block);
    if (step.error) parts.push(step.error);
  }
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/** The start of the request body as text, so a run can be found by what was sent. */
function bodyText(input: unknown): string {
  if (input === null || typeof input !== 'object') return '';
  const body = (input as { body?: unknown }).body;
  if (body === undefined || body === null) return '';
  try {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return text.length > BODY_TEXT_CHARS ? text.slice(0, BODY_TEXT_CHARS) : text;
  } catch {
    return '';
  }
}

function statusTest(status: string | undefined): ((s: number | undefined) => boolean) | undefined {
  const text = status?.trim().toLowerCase();
  if (!text) return undefined;
  const cls = /^([1-5])xx$/.exec(text);
  if (cls) {
    const base = Number(cls[1]) * 100;
    return (s) => s !== undefined && s >= base && s < base + 100;
  }
  const exact = Number(text);
  if (Number.isInteger(exact)) return (s) => s === exact;
  return () => false;
}

/** A run of a flow test, a re-run from a step, or neither (a source or a request started it). */
function originOf(s: RunSummary): RunOrigin {
  return s.test !== undefined ? 'test' : s.forkedFrom !== undefined ? 'rerun' : 'live';
}
