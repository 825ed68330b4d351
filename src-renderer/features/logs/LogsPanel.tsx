import { memo, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { historyCalls } from '../../api/history-calls.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import type { LogEntry, LogFeedEvent } from '../../../shared/feed-events.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PanelHeader } from '../../components/PanelHeader.tsx';
import { objectKey } from '../../components/object-key.ts';
import { VirtualList } from '../../components/VirtualList.tsx';
import { useStudio } from '../../store/studio-store.ts';
import { clockTime, noneOfMatch } from '../../shell/format.ts';
import { atLeast, mergeByTime, platformLine, runtimeLine, type LogLine } from './log-lines.ts';
import './logs.css';

/**
 * A live tail of what the runtimes log and what the platform does, newest at the bottom: filter
 * by level and text, follow or hold still, and jump from a line to the run that wrote it.
 */
export function LogsPanel() {
  const logs = useStudio((s) => s.logs);
  const platform = useStudio((s) => s.platformEvents);
  const clear = useStudio((s) => s.clearLogs);
  const runFilter = useStudio((s) => s.logRunFilter);
  const showRunLogs = useStudio((s) => s.showRunLogs);
  const showRun = useStudio((s) => s.showRun);
  const [level, setLevel] = useState<LogEntry['level']>('debug');
  const [withPlatform, setWithPlatform] = useState(true);
  const [search, setSearch] = useState('');
  const [follow, setFollow] = useState(true);
  const text = useDeferredValue(search.trim().toLowerCase());
  const runLines = useRunLines(runFilter);

  const lines = useMemo(() => {
    const runtime = (runLines ?? logs).map(runtimeLine);
    const all = withPlatform ? mergeByTime(runtime, platform.map(platformLine)) : runtime;
    return all.filter((l) => atLeast(l.level, level) && (!runFilter || l.runId === runFilter) && (!text || l.text.includes(text)));
  }, [logs, runLines, platform, withPlatform, level, runFilter, text]);

  return (
    <section className="panel logs-panel" aria-labelledby="panel-title">
      <PanelHeader title="Logs">
        <span className="muted" aria-label="log line count">
          {lines.length} {lines.length === 1 ? 'line' : 'lines'}
        </span>
        <ConfirmButton
          label="Clear"
          question="Delete every stored log line?"
          confirmLabel="Delete lines"
          onConfirm={() => void historyCalls.clear('logs').then(clear, (err: unknown) => useStudio.getState().setNotice(err instanceof Error ? err.message : String(err)))}
        />
      </PanelHeader>
      <div className="filters" role="search" aria-label="Filter logs">
        <select aria-label="Level" value={level} onChange={(e) => setLevel(e.target.value as LogEntry['level'])}>
          <option value="debug">all levels</option>
          <option value="info">info and above</option>
          <option value="warn">warnings and errors</option>
          <option value="error">errors only</option>
        </select>
        <input type="search" aria-label="Search logs" placeholder="search messages and fields" value={search} onChange={(e) => setSearch(e.target.value)} className="grow" />
        <label>
          <input type="checkbox" checked={withPlatform} onChange={(e) => setWithPlatform(e.target.checked)} /> platform
        </label>
        <label>
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> follow
        </label>
        {runFilter ? (
          <span className="chip">
            run {runFilter}{' '}
            <button type="button" className="icon" aria-label="Show every run's lines" onClick={() => showRunLogs(undefined)}>
              ×
            </button>
          </span>
        ) : null}
      </div>
      <VirtualList
        key={follow ? 'follow' : 'still'}
        label="Logs"
        items={lines}
        rowHeight={24}
        followTail={follow}
        rowKey={objectKey}
        renderRow={(l) => <LogRow line={l} onRun={showRun} />}
        empty={
          logs.length + platform.length === 0 ? (
            <EmptyState title="No log records yet">Records written by running flows (the log block, connectors starting and stopping) and platform traffic appear here.</EmptyState>
          ) : (
            // Lines are there, the filters hide them: say so, and undo them in one click.
            <EmptyState title="No lines match">
              {noneOfMatch(logs.length + platform.length, 'line')} these filters.{' '}
              <button
                type="button"
                className="link"
                onClick={() => {
                  setLevel('debug');
                  setSearch('');
                  setWithPlatform(true);
                  showRunLogs(undefined);
                }}
              >
                Clear filters
              </button>
            </EmptyState>
          )
        }
      />
    </section>
  );
}

/**
 * The stored lines of one run with those that came live since, when the panel shows one run: it
 * may be of an earlier start, or older than the lines the window holds.
 */
function useRunLines(runId: string | undefined) {
  const logs = useStudio((s) => s.logs);
  const [stored, setStored] = useState<{ runId: string; lines: LogFeedEvent[] } | undefined>(undefined);
  useEffect(() => {
    if (!runId) return;
    let live = true;
    historyCalls.logs({ runId, limit: 5_000 }).then(
      (lines) => live && setStored({ runId, lines }),
      () => live && setStored({ runId, lines: [] }),
    );
    return () => {
      live = false;
    };
  }, [runId]);
  return useMemo(() => {
    if (!runId || stored?.runId !== runId) return undefined;
    const seen = new Set(stored.lines.map((l) => `${l.at} ${l.log.msg}`));
    const since = logs.filter((l) => l.log.fields.runId === runId && !seen.has(`${l.at} ${l.log.msg}`));
    return stored.lines.concat(since);
  }, [runId, stored, logs]);
}

const LogRow = memo(function LogRow({ line, onRun }: { line: LogLine; onRun(runId: string): void }) {
  const { runId: _runId, ...rest } = line.fields;
  const fields = Object.keys(rest).length > 0 ? JSON.stringify(rest) : '';
  return (
    <div className={`log-row level-${line.level}`} data-origin={line.origin}>
      <span className="cell time">{clockTime(line.at)}</span>
      <span className="cell level">{line.level}</span>
      <span className="cell origin muted">{line.origin}</span>
      {/* The column cuts a long message (a failed run's error and where it failed): hovering shows it whole. */}
      <span className="cell msg" title={line.msg}>
        {line.msg}
      </span>
      {line.runId ? (
        <button type="button" className="link cell run-link" onClick={() => onRun(line.runId!)} title="Open the run that wrote this line">
          run {line.runId}
        </button>
      ) : null}
      <span className="cell fields muted">{fields}</span>
    </div>
  );
});
