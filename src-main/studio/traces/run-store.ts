import type { DefinitionVersion, RunPage, RunQuery, RunRejection, RunSummary, StoredVersion } from '../../../shared/trace-types.ts';
import type { Retention } from '../../../shared/history-types.ts';
import { type TraceRecord, type TraceSpan } from '../../runtime/index.ts';
import { BoundedMap } from '../../../shared/bounded-map.ts';
import { REFUSED_BEFORE_FLOW, STEP_FIELDS } from '../../../shared/trace-record.ts';
import { GroupIndex } from '../../../shared/group-index.ts';
import { failureNoteOf, type RunFailureNote } from './run-failure-note.ts';
import { lastVerifyStep, rejectionInOutput, VERIFY_BLOCK } from './run-rejection.ts';
import { matchesText, messageText, originOf, statusTest, stepTextOf, TextQuery } from './run-matching.ts';
import { SEARCH_TEXT_CHARS, type RunKeeper, type RunRecord, type RunRequestInfo, type RestoredRun, type StoredDetail, type StoredStep, type Pending, type VerifyStepNote } from './run-record.ts';

export type { RestoredRun, RunKeeper, RunRecord, RunRequestInfo, StoredDetail, StoredStep } from './run-record.ts';
export { SEARCH_TEXT_CHARS } from './run-record.ts';

export interface RunStoreOptions {
  /** Runs kept (up to a tenth more between evictions); the oldest go first. */
  maxRuns?: number;
  /** Rough bytes of runs kept on disk, steps and messages included (up to a tenth more between evictions). */
  maxBytes?: number;
  /** Runs that keep their steps and messages. */
  maxDetailedRuns?: number;
  /** Rough bytes of messages kept across all runs. */
  maxDetailBytes?: number;
}

const MAX_PENDING_RUNS = 10_000;
/**
 * Newest runs a captured request looks through for its run before the index by correlation id:
 * the run ended a moment before its response closed, a few others at most in between.
 */
const RECENT_RUNS = 256;
/** What a run's summary and indexes take besides its texts, roughly, on disk. */
const SUMMARY_BYTES = 320;

/**
 * Every run the studio's runtimes traced, newest last: a summary of each (flow, route, status,
 * outcome, duration), and for the newest ones their steps with the message before and after
 * each. Bounded by count and by bytes. A text filter tests each run's own fields with one
 * case-insensitive pattern: no text is built per run, so a run costs nothing until searched and
 * 100,000 runs answer in tens of milliseconds; the last result is kept for paging.
 */
export class RunStore {
  private runs: RunRecord[] = [];
  private nextSeq = 1;
  private bytes = 0;
  private readonly versions = new Map<string, StoredVersion>();
  /**
   * The indexes by run id, correlation id and trace id hold the runs up to this seq: a run is
   * indexed when something first looks a run up after it came, not as it is stored. Under load
   * nothing does (a captured request finds its run among the newest, RECENT_RUNS), and the three
   * maps' inserts and deletes were about a fifth of what storing a run cost.
   */
  private indexedUpTo = 0;
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
  private maxRuns: number;
  private maxBytes: number;
  private readonly maxDetailedRuns: number;
  private readonly maxDetailBytes: number;
  private readonly listeners = new Set<() => void>();
  private readonly endListeners = new Set<(summary: RunSummary, failure?: RunFailureNote) => void>();
  private readonly runListeners = new Set<(now: RunSummary, before?: RunSummary) => void>();
  private readonly clearListeners = new Set<() => void>();
  /** Each running runtime's count of runs it left untraced, with its value when counting began. */
  private readonly untraced = new Map<() => number, { integration: string; from: number }>();
  /** Untraced runs of runtimes no longer counted (stopped, reloaded), by integration. */
  private readonly untracedBefore = new Map<string, number>();

  private keeper: RunKeeper | undefined;

  constructor(options: RunStoreOptions = {}) {
    this.maxRuns = options.maxRuns ?? 100_000;
    this.maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    this.maxDetailedRuns = options.maxDetailedRuns ?? 5_000;
    this.maxDetailBytes = options.maxDetailBytes ?? 128 * 1024 * 1024;
  }

  get size(): number {
    return this.runs.length;
  }

  /** Rough bytes of the stored runs on disk. */
  get storedBytes(): number {
    return this.bytes;
  }

  /** Hands every later change to `keeper` (studio.db). */
  keepWith(keeper: RunKeeper): void {
    this.keeper = keeper;
  }

  /** Changes the bounds; runs beyond them go now, oldest first. */
  setRetention(retention: Retention): void {
    this.maxRuns = retention.count;
    this.maxBytes = retention.bytes;
    if (this.runs.length > this.maxRuns || this.bytes > this.maxBytes) this.evictOverBounds();
    this.changed();
  }

  /**
   * Takes back runs a keeper read from disk, oldest first, before any new run arrives: their
   * summaries and search texts; their steps load when a run is opened.
   */
  restore(rows: readonly RestoredRun[]): void {
    for (const row of rows) {
      const record: RunRecord = { seq: row.seq, summary: row.summary, searchText: row.searchText, stepText: row.stepText, bytes: row.bytes };
      this.index(record);
      this.nextSeq = Math.max(this.nextSeq, row.seq + 1);
      for (const l of this.runListeners) l(record.summary);
    }
    this.changed();
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

  /**
   * Called for every run stored (restored from disk too), and again when a linked request or a
   * test's name changes it, with a copy of it as it was: what the charts count.
   */
  onRun(listener: (now: RunSummary, before?: RunSummary) => void): () => void {
    this.runListeners.add(listener);
    return () => this.runListeners.delete(listener);
  }

  onCleared(listener: () => void): () => void {
    this.clearListeners.add(listener);
    return () => this.clearListeners.delete(listener);
  }

  /**
   * Called once per run that ends failed or rejected (as soon as it is known), for its log line;
   * a failed run's `failure` says where it failed and which delivery of its message it was.
   */
  onBadEnd(listener: (summary: RunSummary, failure?: RunFailureNote) => void): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /**
   * Takes one trace event of a runtime of `integration`; a run event completes its run. `version`
   * is the definition the runtime was loaded from.
   */
  record(integration: string, e: TraceRecord, version?: DefinitionVersion): void {
    if (e.kind === 'step') {
      this.pendingOf(e.runId, integration).steps.push(storedStep(e));
      return;
    }
    const pending = this.pending.get(e.runId);
    this.pending.delete(e.runId);
    const steps = pending?.steps ?? [];
    const calls = pending?.calls ?? [];
    let snapshots = e.input !== undefined;
    for (let i = 0; i < steps.length && !snapshots; i++) snapshots = steps[i].input !== undefined;
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
    if (version !== undefined) summary.version = version;
    const detailText = detailTextOf(steps, calls, e.input, e.output, snapshots);
    const record: RunRecord = { seq: 0, summary, searchText: messageText(e.input, e.output), stepText: stepTextOf(steps), detailText, bytes: 0, firstVerify: firstVerifyOf(steps) };
    if (e.outcome === 'failed' && steps.length === 0 && e.error?.startsWith(REFUSED_BEFORE_FLOW)) {
      // The http source turned the request away before any step: listed as rejected, by the source.
      reject(summary, { step: `flows.${e.flow}.source`, block: 'http', reason: e.error.slice(REFUSED_BEFORE_FLOW.length) });
    } else if (e.outcome === 'completed') {
      const verify = lastVerifyStep(steps);
      if (verify) {
        const rejection = verify.output !== undefined ? rejectionInOutput(verify) : undefined;
        if (rejection) reject(summary, rejection);
        else if (verify.output === undefined) record.verifyStep = { step: verify.step, block: verify.block ?? '' };
      }
    }
    const request = this.awaiting.get(e.correlationId);
    if (request && request.startedAt <= e.startedAt + 1) {
      this.awaiting.delete(e.correlationId);
      applyRequest(record, request);
      this.byCapture.set(request.captureId, record);
    }
    this.add(record, summary.outcome === 'failed' ? failureNoteOf(steps, e.input) : undefined);
  }

  /** Takes a call a step made; it is placed under its step when the run is read. */
  recordSpan(integration: string, span: TraceSpan): void {
    this.pendingOf(span.runId, integration).calls.push(span);
  }

  /** Adds a finished run without steps (tests seed the store this way). */
  addSummary(summary: RunSummary, bodyHint = ''): void {
    this.add({ seq: 0, summary, searchText: bodyHint.slice(0, SEARCH_TEXT_CHARS), bytes: 0 });
  }

  /**
   * Links a captured request to the run it started (same correlation id, started at or after the
   * request); the run gains the route and status. A run still going is linked when it ends.
   */
  linkRequest(correlationId: string, flow: string | undefined, info: RunRequestInfo): string | undefined {
    // Newest first, as the index would list them: the newest runs, then (none of them taken) the index.
    const recent = Math.max(0, this.runs.length - RECENT_RUNS);
    let linked: RunRecord | 'none' | undefined;
    for (let i = this.runs.length - 1; i >= recent && linked === undefined; i--) {
      const r = this.runs[i];
      if (r.summary.correlationId === correlationId) linked = this.linkable(r, flow, info);
    }
    if (linked === undefined && recent > 0) {
      const candidates = this.indexed().byCorrelation.get(correlationId);
      for (let i = candidates.length - 1; i >= 0 && linked === undefined; i--) linked = this.linkable(candidates[i], flow, info);
    }
    if (linked === undefined || linked === 'none') {
      this.awaiting.set(correlationId, info);
      return undefined;
    }
    const r = linked;
    const bytesBefore = r.bytes;
    const outcomeBefore = r.summary.outcome;
    const before = this.runListeners.size > 0 ? { ...r.summary } : undefined;
    applyRequest(r, info);
    for (const l of this.runListeners) l(r.summary, before);
    if (r.summary.outcome !== outcomeBefore) this.endedBadly(r.summary);
    this.bytes += r.bytes - bytesBefore;
    this.byCapture.set(info.captureId, r);
    this.keeper?.kept(r);
    this.changed();
    return r.summary.runId;
  }

  /**
   * Of the runs with the request's correlation id, newest first: this one if the request started
   * it, undefined to look at the next, 'none' when it started before the request (no older one can be it).
   */
  private linkable(r: RunRecord, flow: string | undefined, info: RunRequestInfo): RunRecord | 'none' | undefined {
    if (r.summary.captureId !== undefined || (flow !== undefined && r.summary.flow !== flow)) return undefined;
    return r.summary.startedAt + 1 < info.startedAt ? 'none' : r;
  }

  /** Notes where a run came from (a re-run's origin, a flow test's name); the list shows and searches it. */
  markRun(runId: string, origin: Pick<RunSummary, 'forkedFrom' | 'forkedAt' | 'test'>): void {
    const r = this.indexed().byId.get(runId);
    if (!r) return;
    Object.assign(r.summary, origin);
    this.keeper?.kept(r);
    this.changed();
  }

  runIdForCapture(captureId: number): string | undefined {
    return this.byCapture.get(captureId)?.summary.runId;
  }

  summary(runId: string): RunSummary | undefined {
    return this.indexed().byId.get(runId)?.summary;
  }

  /** The other stored runs of a run's trace, oldest first. */
  sameTrace(runId: string): RunSummary[] {
    const traceId = this.indexed().byId.get(runId)?.summary.traceId;
    if (traceId === undefined) return [];
    return this.byTrace
      .get(traceId)
      .filter((r) => r.summary.runId !== runId)
      .map((r) => r.summary)
      .sort((a, b) => a.startedAt - b.startedAt);
  }

  /** A run with its steps and messages: from memory for the newest runs, else from the keeper's disk. */
  detail(runId: string): { summary: RunSummary; detail: StoredDetail | undefined } | undefined {
    return this.detailOf(this.indexed().byId.get(runId));
  }

  /** The run a captured request started, with its first verification step (undefined: it had none). */
  verifyStepForCapture(captureId: number): { summary: RunSummary; step: VerifyStepNote | undefined } | undefined {
    const r = this.byCapture.get(captureId);
    if (!r) return undefined;
    if (r.firstVerify !== undefined) return { summary: r.summary, step: r.firstVerify ?? undefined };
    // A run read back from disk: its steps say.
    const steps = this.detailOf(r)?.detail?.steps;
    return { summary: r.summary, step: steps ? (firstVerifyOf(steps) ?? undefined) : undefined };
  }

  private detailOf(r: RunRecord | undefined): { summary: RunSummary; detail: StoredDetail | undefined } | undefined {
    if (!r) return undefined;
    let text = r.detailText;
    if (text === undefined && this.keeper) {
      try {
        text = this.keeper.detailTextOf(r.seq);
      } catch {
        text = undefined;
      }
    }
    return { summary: r.summary, detail: text === undefined ? undefined : parseDetail(text) };
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
      versions: [...this.versions.values()].sort((a, b) => b.generation - a.generation || a.integration.localeCompare(b.integration)).map((v) => ({ ...v })),
      tookMs: performance.now() - t0,
      notTraced: this.notTraced(q.integration || undefined),
    };
  }

  clear(): void {
    this.runs = [];
    this.bytes = 0;
    this.indexedUpTo = 0;
    this.versions.clear();
    this.pending.clear();
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
    this.keeper?.cleared();
    for (const l of this.clearListeners) l();
    this.changed();
  }

  /** Newest first; the same filters over an unchanged store reuse the last answer. */
  private matching(q: RunQuery): RunRecord[] {
    const key = JSON.stringify([q.integration, q.flow, q.route, q.outcome, q.status, q.generation, q.text?.trim().toLowerCase(), q.origin]);
    if (this.cache && this.cache.key === key && this.cache.version === this.version) return this.cache.matches;
    const text = q.text?.trim() ? new TextQuery(q.text.trim()) : undefined;
    const status = statusTest(q.status);
    const out: RunRecord[] = [];
    for (let i = this.runs.length - 1; i >= 0; i--) {
      const r = this.runs[i];
      const s = r.summary;
      if (q.flow && s.flow !== q.flow) continue;
      if (q.integration && s.integration !== q.integration) continue;
      if (q.route && s.route !== q.route) continue;
      if (q.outcome && s.outcome !== q.outcome) continue;
      if (q.generation !== undefined && s.version?.generation !== q.generation) continue;
      if (status && !status(s.status)) continue;
      if (q.origin && originOf(s) !== q.origin) continue;
      if (text && !matchesText(r, text)) continue;
      out.push(r);
    }
    this.cache = { key, version: this.version, matches: out };
    return out;
  }

  private add(record: RunRecord, failure?: RunFailureNote): void {
    record.seq = this.nextSeq++;
    record.bytes = recordBytes(record);
    this.index(record);
    if (record.detailText !== undefined) {
      this.detailed.push(record);
      this.detailBytes += record.detailText.length;
      this.trimDetail();
    }
    this.keeper?.kept(record);
    for (const l of this.runListeners) l(record.summary);
    this.endedBadly(record.summary, failure);
    // Up to a tenth more is let in before the oldest go, so eviction costs one array copy per
    // 10,000 runs, not one per run; then the store is back within its bounds.
    if (this.runs.length > this.maxRuns + Math.floor(this.maxRuns / 10) || this.bytes > this.maxBytes * 1.1) this.evictOverBounds();
    this.changed();
  }

  private index(record: RunRecord): void {
    const s = record.summary;
    this.runs.push(record);
    this.bytes += record.bytes;
    if (s.captureId !== undefined) this.byCapture.set(s.captureId, record);
    this.flowCounts.set(s.flow, (this.flowCounts.get(s.flow) ?? 0) + 1);
    if (s.version) {
      const key = `${s.integration}\0${s.version.generation}`;
      const v = this.versions.get(key);
      if (v) v.runs++;
      else this.versions.set(key, { integration: s.integration, generation: s.version.generation, digest: s.version.digest, runs: 1 });
    }
  }

  /** The store with every run in its indexes by id, correlation and trace. */
  private indexed(): this {
    let from = this.runs.length;
    while (from > 0 && this.runs[from - 1].seq > this.indexedUpTo) from--;
    for (let i = from; i < this.runs.length; i++) {
      const record = this.runs[i];
      const s = record.summary;
      this.byId.set(s.runId, record);
      this.byCorrelation.add(s.correlationId, record);
      if (s.traceId !== undefined) this.byTrace.add(s.traceId, record);
    }
    if (this.runs.length > 0) this.indexedUpTo = this.runs[this.runs.length - 1].seq;
    return this;
  }

  /** Drops the oldest runs until the store is within its count and its bytes. */
  private evictOverBounds(): void {
    let count = Math.max(0, this.runs.length - this.maxRuns);
    let bytes = this.bytes;
    for (let i = 0; i < count; i++) bytes -= this.runs[i].bytes;
    while (bytes > this.maxBytes && count < this.runs.length - 1) bytes -= this.runs[count++].bytes;
    if (count > 0) this.evict(count);
  }

  private evict(count: number): void {
    const gone = this.runs.slice(0, count);
    this.runs = this.runs.slice(count);
    for (const r of gone) {
      const s = r.summary;
      this.bytes -= r.bytes;
      if (r.seq <= this.indexedUpTo) {
        if (this.byId.get(s.runId) === r) this.byId.delete(s.runId);
        this.byCorrelation.remove(s.correlationId, r);
        if (s.traceId !== undefined) this.byTrace.remove(s.traceId, r);
      }
      if (s.captureId !== undefined) this.byCapture.delete(s.captureId);
      const n = (this.flowCounts.get(s.flow) ?? 1) - 1;
      if (n <= 0) this.flowCounts.delete(s.flow);
      else this.flowCounts.set(s.flow, n);
      if (s.version) {
        const key = `${s.integration}\0${s.version.generation}`;
        const v = this.versions.get(key);
        if (v && --v.runs <= 0) this.versions.delete(key);
      }
      if (r.detailText !== undefined) {
        this.detailBytes -= r.detailText.length;
        r.detailText = undefined;
      }
    }
    this.keeper?.forgotUpTo(gone[gone.length - 1].seq);
  }

  private trimDetail(): void {
    while (this.detailed.length - this.detailHead > this.maxDetailedRuns || (this.detailBytes > this.maxDetailBytes && this.detailed.length - this.detailHead > 1)) {
      const oldest = this.detailed[this.detailHead++];
      if (oldest.detailText !== undefined) {
        // Its steps' names and errors stay searchable in its stepText.
        this.detailBytes -= oldest.detailText.length;
        oldest.detailText = undefined;
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

  private endedBadly(summary: RunSummary, failure?: RunFailureNote): void {
    if (summary.outcome !== 'failed' && summary.outcome !== 'rejected') return;
    for (const l of this.endListeners) l(summary, failure);
  }

  private changed(): void {
    this.version++;
    for (const l of this.listeners) l();
  }
}

/** The step's path, then its STEP_FIELDS as pickFields takes them (those it has), in one object. */
function storedStep(e: TraceRecord): StoredStep {
  const step: Record<string, unknown> = { step: e.step ?? '' };
  for (const field of STEP_FIELDS) {
    const value = e[field];
    if (value !== undefined) step[field] = value;
  }
  return step as StoredStep;
}

function firstVerifyOf(steps: readonly StoredStep[]): VerifyStepNote | null {
  const step = steps.find((s) => s.block !== undefined && VERIFY_BLOCK.test(s.block));
  if (!step) return null;
  const output = step.output as { vars?: { notesVerification?: unknown } } | undefined;
  const note: VerifyStepNote = { block: step.block ?? '', outcome: step.outcome, handshake: output?.vars?.notesVerification !== undefined };
  if (step.error !== undefined) note.error = step.error;
  return note;
}

/**
 * A run's steps and messages as the text studio.db keeps and the store holds. A value JSON cannot
 * carry (a BigInt in a body) is written as its string rather than losing the run.
 */
function detailTextOf(steps: StoredStep[], calls: TraceSpan[], input: unknown, output: unknown, snapshots: boolean): string {
  const detail = { steps, calls, input, output, snapshots };
  try {
    return JSON.stringify(detail);
  } catch {
    return JSON.stringify(detail, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  }
}

/** A run's detail read back from its text; `bytes` is the text's length. */
function parseDetail(text: string): StoredDetail | undefined {
  try {
    const detail = JSON.parse(text) as StoredDetail;
    detail.bytes = text.length;
    return detail;
  } catch {
    return undefined;
  }
}

function applyRequest(record: RunRecord, info: RunRequestInfo): void {
  record.summary.captureId = info.captureId;
  record.summary.status = info.status;
  record.summary.method = info.method;
  if (info.route !== undefined) record.summary.route = info.route;
  if (info.path !== undefined) record.summary.path = info.path;
  if (info.searchText) {
    // The exact request comes first: what was sent is what a person searches for.
    const before = record.searchText.length;
    record.searchText = `${info.searchText}\n${record.searchText}`.slice(0, SEARCH_TEXT_CHARS);
    record.bytes += record.searchText.length - before;
  }
  const verify = record.verifyStep;
  if (verify && info.status >= 400 && info.status <= 499) {
    reject(record.summary, { step: verify.step, block: verify.block, reason: info.answerError ?? `answered ${info.status}` });
  }
  record.verifyStep = undefined;
}

function reject(summary: RunSummary, rejection: RunRejection): void {
  summary.outcome = 'rejected';
  summary.rejection = rejection;
}

function recordBytes(record: RunRecord): number {
  return SUMMARY_BYTES + record.searchText.length + (record.stepText?.length ?? 0) + (record.detailText?.length ?? 0);
}
