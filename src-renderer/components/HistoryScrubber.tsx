import { useEffect, useState } from 'react';
import type { HistoryWindow } from '../../shared/platform-views.ts';
import { platformQueries } from '../api/platform-queries.ts';
import { clockTime } from '../shell/format.ts';
import type { PlatformView } from '../store/platform-views-slice.ts';
import { useStudio } from '../store/studio-store.ts';
import { useLiveQuery } from './use-live-query.ts';

/**
 * Moves one platform view back in time (the others stay as they are): a slider over the history
 * the backend keeps (its minutes are set here too), steps of a second, and Live to follow the
 * present again. Whether the view is live is said in words, not only by the button's state.
 */
export function HistoryScrubber({ view }: { view: PlatformView }) {
  const at = useStudio((s) => s.platformAt[view]);
  const setPlatformAt = useStudio((s) => s.setPlatformAt);
  const setAt = (t: number | undefined): void => setPlatformAt(view, t);
  const history = useLiveQuery(() => platformQueries.platformHistory(), 'history', { intervalMs: 2_000, live: at === undefined });
  const [span, setSpan] = useState<HistoryWindow | undefined>();
  useEffect(() => {
    if (history.data) setSpan(history.data);
  }, [history.data]);
  const live = at === undefined;
  const from = span?.from ?? Date.now() - 15 * 60_000;
  const to = span?.to ?? Date.now();
  const shown = at ?? to;
  const step = (ms: number): void => setAt(Math.min(to, Math.max(from, shown + ms)));

  return (
    <div className="pv-scrubber" role="group" aria-label="History" data-live={live}>
      <span className={live ? 'pv-state-live' : 'pv-state-past'} role="status" aria-label="View state">
        {live ? 'Live' : 'Paused in the past'}
      </span>
      <button type="button" aria-pressed={live} className={live ? 'pv-live on' : 'pv-live'} onClick={() => setAt(undefined)} title="Follow what happens now">
        ● Live
      </button>
      <button type="button" aria-label="One second back" onClick={() => step(-1_000)}>
        −1 s
      </button>
      <input
        type="range"
        aria-label="Moment shown"
        min={from}
        max={to}
        step={100}
        value={Math.min(to, Math.max(from, shown))}
        onChange={(e) => setAt(Number(e.currentTarget.value))}
      />
      <button type="button" aria-label="One second forward" disabled={live} onClick={() => step(1_000)}>
        +1 s
      </button>
      <span className="pv-moment" aria-label="Moment shown as text">
        {live ? 'now' : `${clockTime(shown)} (${Math.round((Date.now() - shown) / 1000)} s ago)`}
      </span>
      <HistoryMinutes span={span} onChange={setSpan} />
    </div>
  );
}

function HistoryMinutes({ span, onChange }: { span: HistoryWindow | undefined; onChange: (w: HistoryWindow) => void }) {
  const [text, setText] = useState('');
  useEffect(() => {
    if (span) setText(String(span.minutes));
  }, [span?.minutes]);
  const apply = (): void => {
    const minutes = Number(text);
    if (!Number.isFinite(minutes) || minutes <= 0 || minutes === span?.minutes) return;
    void platformQueries.setPlatformHistory(minutes).then(onChange);
  };
  return (
    <label className="pv-minutes muted" title="How far back the platform views can go; older events are dropped">
      keep
      <input
        type="number"
        min={1}
        max={120}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply();
        }}
      />
      min
    </label>
  );
}
