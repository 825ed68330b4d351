import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { RunPage, RunSummary, StoredVersion } from '../../../shared/trace-types.ts';
import { traceQueries } from '../../api/trace-queries.ts';
import { NO_RUN_FILTERS, type RunFilters } from '../../store/traces-slice.ts';
import { useStudio } from '../../store/studio-store.ts';
import { clockTime, counted, noneOfMatch, runDuration } from '../../shell/format.ts';

const PAGE = 200;
const ROW = 28;
/** Rows fetched beyond the viewport each way, so scrolling never reaches rows still loading. */
const AHEAD = 600;
const OVERSCAN = 10;
const TEXT_DEBOUNCE_MS = 40;
const LIVE_REFRESH_MS = 300;

interface ListState {
  key: string;
  generation: number;
  total: number;
  stored: number;
  /** Runs answered but left untraced under load, of every flow (RunPage.notTraced). */
  notTraced: number;
  pages: Map<number, RunSummary[]>;
  tookMs: number;
  /** When the answer to the current filters arrived, measured from when they changed. */
  answerMs: number;
}

/**
 * The stored runs, newest first, a page at a time: the store may hold 100,000, so only the pages
 * around the viewport are fetched (well ahead of the scroll) and only visible rows are rendered.
 * New runs refresh the list while it shows its top; further down, they are counted, not inserted,
 * so rows do not move under the person reading them.
 */
export function RunList({ onOptions }: { onOptions(flows: string[], versions: StoredVersion[]): void }) {
  const filters = useStudio((s) => s.runFilters);
  const epoch = useStudio((s) => s.runsEpoch);
  const liveTraces = useStudio((s) => s.traces);
  const selected = useStudio((s) => s.selectedRun);
  const picks = useStudio((s) => s.comparePicks);
  const selectRun = useStudio((s) => s.selectRun);
  const setRunFilters = useStudio((s) => s.setRunFilters);
  const filtered = Object.values(filters).some((v) => v !== '');
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  const [list, setList] = useState<ListState | undefined>(undefined);
  const [newRuns, setNewRuns] = useState(0);
  const key = JSON.stringify({ ...filters, epoch });
  const keyRef = useRef(key);
  const loading = useRef(new Set<number>());
  const changedAt = useRef(performance.now());

  /**
   * Fetches pages of the current filters. `reset` starts a new generation: answers of older
   * generations are ignored, and the first answer of the new one replaces every cached page.
   */
  const generation = useRef(0);
  const fetchPages = useCallback(
    (pages: number[], reset: boolean) => {
      if (reset) {
        generation.current++;
        loading.current.clear();
      }
      const gen = generation.current;
      const forKey = keyRef.current;
      const f = JSON.parse(forKey) as RunFilters & { epoch: number };
      for (const p of pages) {
        if (loading.current.has(p)) continue;
        loading.current.add(p);
        const cut = f.version.lastIndexOf('/');
        traceQueries
          .runs({
            flow: f.flow || undefined,
            outcome: f.outcome || undefined,
            status: f.status || undefined,
            text: f.text || undefined,
            origin: f.origin || undefined,
            integration: f.version ? f.version.slice(0, cut) : undefined,
            generation: f.version ? Number(f.version.slice(cut + 1)) : undefined,
            offset: p * PAGE,
            limit: PAGE,
          })
          .then(
            (page: RunPage) => {
              if (gen !== generation.current) return;
              loading.current.delete(p);
              onOptions(page.flows, page.versions);
              setList((prev) => {
                const fresh = !prev || prev.generation !== gen;
                const next = fresh ? new Map<number, RunSummary[]>() : new Map(prev.pages);
                next.set(p, page.rows);
                return {
                  key: forKey,
                  generation: gen,
                  total: page.total,
                  stored: page.stored,
                  notTraced: page.notTraced,
                  pages: next,
                  // The first page of a generation is the one that scanned the store.
                  tookMs: fresh ? page.tookMs : prev.tookMs,
                  answerMs: prev?.key === forKey ? prev.answerMs : performance.now() - changedAt.current,
                };
              });
            },
            () => gen === generation.current && loading.current.delete(p),
          );
      }
    },
    [onOptions],
  );

  // New filters: start over from the top (the text box waits a moment between keystrokes).
  useEffect(() => {
    keyRef.current = key;
    changedAt.current = performance.now();
    setNewRuns(0);
    const timer = setTimeout(() => {
      if (viewport.current) viewport.current.scrollTop = 0;
      setScrollTop(0);
      fetchPages([0, 1], true);
    }, filters.text ? TEXT_DEBOUNCE_MS : 0);
    return () => clearTimeout(timer);
  }, [key, filters.text, fetchPages]);

  // Live: runs finished since the last look (counted from the end, where the feed appends).
  const lastSeen = useRef(liveTraces);
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastRefresh = useRef(-Infinity);
  useEffect(() => {
    const before = lastSeen.current;
    if (before === liveTraces) return;
    lastSeen.current = liveTraces;
    const tail = before.at(-1);
    let added = 0;
    for (let i = tail ? liveTraces.lastIndexOf(tail) + 1 : 0; i < liveTraces.length; i++) if (liveTraces[i].trace.kind === 'run') added++;
    if (added === 0) return;
    if ((viewport.current?.scrollTop ?? 0) > ROW) {
      setNewRuns((n) => n + added);
      return;
    }
    // At most one refresh per interval however fast runs arrive, but the first run after a quiet
    // spell shows at once: the person who just sent a request is looking for it.
    if (refreshTimer.current) return;
    const wait = Math.max(0, lastRefresh.current + LIVE_REFRESH_MS - performance.now());
    refreshTimer.current = setTimeout(() => {
      refreshTimer.current = undefined;
      lastRefresh.current = performance.now();
      fetchPages([0, 1], true);
    }, wait);
  }, [liveTraces, fetchPages]);
  useEffect(() => () => clearTimeout(refreshTimer.current), []);

  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    setHeight(el.clientHeight);
    return () => observer.disconnect();
  }, []);

  // Fetch what the viewport will need soon.
  useLayoutEffect(() => {
    if (!list || list.key !== key) return;
    const first = Math.max(0, Math.floor((scrollTop - AHEAD * ROW) / ROW));
    const last = Math.min(list.total, Math.ceil((scrollTop + height + AHEAD * ROW) / ROW));
    const wanted: number[] = [];
    for (let p = Math.floor(first / PAGE); p * PAGE < last; p++) if (!list.pages.has(p)) wanted.push(p);
    if (wanted.length) fetchPages(wanted, false);
  }, [scrollTop, height, list, key, fetchPages]);

  /**
   * ↑/↓ select the run above or below the selected one (Home: the newest), scrolling it into
   * view, as in a browser's network panel: reading runs one after another needs no mouse.
   */
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (!list || list.key !== key || list.total === 0 || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home') return;
    if (e.target instanceof HTMLInputElement) return;
    e.preventDefault();
    // Read at the key press, not from the last render: keys pressed faster than renders still count.
    const at = indexOf(list.pages, useStudio.getState().selectedRun);
    const next = e.key === 'Home' || at < 0 ? 0 : Math.max(0, Math.min(list.total - 1, at + (e.key === 'ArrowDown' ? 1 : -1)));
    const run = list.pages.get(Math.floor(next / PAGE))?.[next % PAGE];
    if (!run) return;
    selectRun(run.runId);
    const el = viewport.current;
    if (!el) return;
    if (next * ROW < el.scrollTop) el.scrollTop = next * ROW;
    else if ((next + 1) * ROW > el.scrollTop + el.clientHeight) el.scrollTop = (next + 1) * ROW - el.clientHeight;
  };

  // Until the new filters answer, the previous rows stay rather than flashing an empty list.
  const total = list?.total ?? 0;
  const first = Math.max(0, Math.floor(scrollTop / ROW) - OVERSCAN);
  const last = Math.min(total, Math.ceil((scrollTop + height) / ROW) + OVERSCAN);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const run = list?.pages.get(Math.floor(i / PAGE))?.[i % PAGE];
    rows.push(
      <div key={run ? run.runId : `pending-${i}`} className="vlist-row" role="row" aria-rowindex={i + 1} style={{ top: i * ROW, height: ROW }}>
        {run ? <RunRow run={run} selected={run.runId === selected} picked={picks.includes(run.runId)} onSelect={selectRun} /> : <div className="run-row-pending muted">…</div>}
      </div>,
    );
  }

  return (
    <div className="run-list">
      <div className="run-count muted" aria-live="polite">
        {list === undefined ? (
          'Loading runs…'
        ) : (
          <>
            <span aria-label="matching runs">
              {total.toLocaleString('en-US')} of {counted(list.stored, 'run')}
            </span>{' '}
            <span className="answer-time" data-store-ms={list.tookMs.toFixed(1)} data-answer-ms={list.answerMs.toFixed(0)}>
              · answered in {Math.max(1, Math.round(list.answerMs))} ms
            </span>
            {list.notTraced > 0 ? (
              <span
                className="runs-untraced"
                data-testid="runs-not-traced-list"
                title="Runs answered but not traced: their runtime was saturated, so it traced at most FLOW_TRACE_SATURATED_RATE runs a second (250 in the studio unless set), within 3% of its CPU, rather than slow requests. Counted for every flow, since the studio started or the runs were cleared."
              >
                {' '}
                · {list.notTraced.toLocaleString('en-US')} untraced under load
              </span>
            ) : null}
            {newRuns > 0 ? (
              <button
                type="button"
                className="link"
                onClick={() => {
                  if (viewport.current) viewport.current.scrollTop = 0;
                  setNewRuns(0);
                  fetchPages([0, 1], true);
                }}
              >
                {newRuns} new — show
              </button>
            ) : null}
          </>
        )}
      </div>
      <div
        className="vlist"
        role="table"
        aria-label="Runs"
        aria-rowcount={total}
        aria-keyshortcuts="ArrowUp ArrowDown Home"
        tabIndex={0}
        ref={viewport}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        onKeyDown={onKeyDown}
      >
        {list !== undefined && list.key === key && total === 0 ? (
          <div className="empty-state">
            <h3>No runs {filtered ? 'match' : 'yet'}</h3>
            {filtered && list.stored > 0 ? (
              // Runs are stored, the filters hide them: advice to send a request would mislead.
              <p>
                {noneOfMatch(list.stored, 'stored run')} these filters.{' '}
                <button type="button" className="link" onClick={() => setRunFilters(NO_RUN_FILTERS)}>
                  Clear filters
                </button>
              </p>
            ) : (
              <p>Send a request to a running integration; every run appears here with its steps.</p>
            )}
          </div>
        ) : (
          <div className="vlist-body" style={{ height: total * ROW }}>
            {rows}
          </div>
        )}
      </div>
    </div>
  );
}

/** Where a run is among the pages loaded, -1 when it is not (none selected, or scrolled far off). */
function indexOf(pages: ReadonlyMap<number, RunSummary[]>, runId: string | undefined): number {
  if (runId === undefined) return -1;
  for (const [page, runs] of pages) {
    const i = runs.findIndex((r) => r.runId === runId);
    if (i >= 0) return page * PAGE + i;
  }
  return -1;
}

const RunRow = memo(function RunRow({ run, selected, picked, onSelect }: { run: RunSummary; selected: boolean; picked: boolean; onSelect(id: string): void }) {
  const toggle = useStudio((s) => s.toggleComparePick);
  return (
    <div
      className={`trace-row run-row outcome-${run.outcome}${selected ? ' selected' : ''}`}
      data-flow={run.flow}
      data-kind="run"
      data-run={run.runId}
      aria-selected={selected}
      onClick={() => onSelect(run.runId)}
    >
      <input type="checkbox" aria-label={`Pick ${run.runId} to compare`} checked={picked} onChange={() => toggle(run.runId)} onClick={(e) => e.stopPropagation()} />
      <span className="cell time" title={clockTime(run.startedAt)}>
        {clockTime(run.startedAt).slice(0, 8)}
        <span className="ms">{clockTime(run.startedAt).slice(8)}</span>
      </span>
      <span className="cell flow">{run.flow}</span>
      <span className="cell route" title={`${run.method ?? ''} ${run.path ?? run.route ?? ''}${run.route ? ` (route ${run.route})` : ''} · ${run.runId} · ${run.integration}`}>
        {run.route ? `${run.method ?? ''} ${run.path ?? run.route}` : <span className="muted">{run.integration}</span>}
      </span>
      <span className="cell origin">
        <RunOriginBadge run={run} />
        {run.test === undefined && run.forkedFrom === undefined && run.version ? <VersionBadge version={run.version} /> : null}
      </span>
      <span className={`cell code status-${run.status === undefined ? 'none' : `${Math.floor(run.status / 100)}xx`}`}>{run.status ?? ''}</span>
      <span className="cell outcome" title={run.rejection ? `${run.rejection.block}: ${run.rejection.reason}` : run.error}>
        {run.outcome}
      </span>
      <span className="cell duration">{runDuration(run.durationMs)}</span>
    </div>
  );
});

/**
 * The working-copy version that served a run: `v3`, dashed, its digest on hover, so it never reads
 * like a version tag (`v1.0.0`), which the Resources panel shows as a solid `tag`.
 */
export function VersionBadge({ version }: { version: NonNullable<RunSummary['version']> }) {
  return (
    <span className="version-badge" title={`working copy, version ${version.generation} (digest ${version.digest} of its definition files)`} data-generation={version.generation}>
      v{version.generation}
    </span>
  );
}

/** Marks a run a flow test made ("test", its name on hover) or a re-run from a step ("re-run of r12"). */
export function RunOriginBadge({ run }: { run: Pick<RunSummary, 'test' | 'forkedFrom' | 'forkedAt'> }) {
  if (run.test !== undefined) {
    return (
      <span className="origin-badge origin-test" title={`Run of the flow test “${run.test}”`}>
        test
      </span>
    );
  }
  if (run.forkedFrom !== undefined) {
    return (
      <span className="origin-badge origin-rerun" title={`Re-run of run ${run.forkedFrom} from ${run.forkedAt ?? 'a step'}`}>
        re-run<span className="origin-detail"> of {run.forkedFrom}</span>
      </span>
    );
  }
  return null;
}
