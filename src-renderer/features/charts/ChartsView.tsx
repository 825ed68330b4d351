import { counted } from '../../shell/format.ts';
import { useState } from 'react';
import { METRIC_WINDOWS, type MetricRow, type MetricsSeries } from '../../../shared/metrics-types.ts';
import { metricsCalls } from '../../api/metrics-calls.ts';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { formatRate } from './Sparkline.tsx';
import { TimeChart } from './TimeChart.tsx';
import './charts.css';

const WINDOW_LABELS: Record<number, string> = { [5 * 60_000]: '5 min', [15 * 60_000]: '15 min', [60 * 60_000]: '1 hour', [6 * 60 * 60_000]: '6 hours', [24 * 60 * 60_000]: '24 hours' };
/** How often the charts ask again while shown: a live view, not a redraw per run. */
const REFRESH_MS = 1_000;

interface Scope {
  integration: string;
  flow: string;
  route: string;
}

const ms = (v: number): string => (v >= 1000 ? `${(v / 1000).toFixed(v >= 10_000 ? 0 : 1)} s` : v >= 10 ? `${Math.round(v)} ms` : `${v.toFixed(v >= 1 ? 1 : 2)} ms`);
const pct = (v: number): string => `${(v * 100).toFixed(v >= 0.1 || v === 0 ? 0 : 1)}%`;

/**
 * Throughput, latency and errors of the studio's flows over the last minutes or hours, from the
 * stored runs and live: all flows, or one flow or route picked in the table below the charts.
 */
export function ChartsView() {
  const [windowMs, setWindowMs] = useState<number>(5 * 60_000);
  const [scope, setScope] = useState<Scope>({ integration: '', flow: '', route: '' });
  const query = { windowMs, integration: scope.integration || undefined, flow: scope.flow || undefined, route: scope.route || undefined };
  const series = useLiveQuery(() => metricsCalls.series(query), JSON.stringify(query), { intervalMs: REFRESH_MS, live: true });
  // The table lists every flow and route of the window, whatever is picked.
  const all = useLiveQuery(() => metricsCalls.series({ windowMs }), `all ${windowMs}`, { intervalMs: REFRESH_MS, live: true });
  const s = series.data;
  return (
    <section className="charts-view" aria-label="Charts">
      <div className="filters charts-bar">
        <label>
          <span className="muted">over the last </span>
          <select aria-label="Window" value={windowMs} onChange={(e) => setWindowMs(Number(e.target.value))}>
            {METRIC_WINDOWS.map((w) => (
              <option key={w} value={w}>
                {WINDOW_LABELS[w]}
              </option>
            ))}
          </select>
        </label>
        <span className="charts-scope" aria-label="Charted">
          {scope.flow ? (
            <>
              {scope.integration}/<strong>{scope.flow}</strong>
              {scope.route ? <code> {scope.route}</code> : null}{' '}
              <button type="button" className="link" onClick={() => setScope({ integration: '', flow: '', route: '' })}>
                all flows
              </button>
            </>
          ) : (
            'all flows'
          )}
        </span>
        {s ? <Headline s={s} /> : null}
      </div>
      {series.error ? <p className="error">{series.error}</p> : null}
      {!s ? (
        <p className="muted">Loading…</p>
      ) : (
        <div className="charts-grid">
          <TimeChart
            label="Requests per second"
            title="Requests per second"
            times={s.points.map((p) => p.at)}
            lines={[{ label: 'req/s', color: '--accent', values: s.points.map((p) => p.perSecond), fill: true }]}
            unit={(v) => (v >= 100 ? String(Math.round(v)) : v.toFixed(v >= 10 ? 0 : 1))}
          />
          <TimeChart
            label="Latency"
            title="Latency: p50, p95, p99"
            times={s.points.map((p) => p.at)}
            lines={[
              { label: 'p50', color: '--ok', values: s.points.map((p) => p.p50 ?? null) },
              { label: 'p95', color: '--warn', values: s.points.map((p) => p.p95 ?? null) },
              { label: 'p99', color: '--bad', values: s.points.map((p) => p.p99 ?? null), dash: [4, 3] },
            ]}
            unit={ms}
          />
          <TimeChart
            label="Error rate"
            title="Error rate (failed runs and 5xx answers)"
            times={s.points.map((p) => p.at)}
            lines={[{ label: 'errors', color: '--bad', values: s.points.map((p) => (p.runs > 0 ? p.errorRate * 100 : null)), fill: true }]}
            unit={(v) => `${v.toFixed(v >= 10 ? 0 : 1)}%`}
          />
        </div>
      )}
      <MetricTable rows={all.data?.rows ?? []} scope={scope} onPick={setScope} />
      {s ? <p className="muted charts-note">Counted from the stored runs (traced runs; those left untraced under load are not in them). {s.precision}.</p> : null}
    </section>
  );
}

function Headline({ s }: { s: MetricsSeries }) {
  const rejected = s.points.reduce((n, p) => n + p.rejected, 0);
  return (
    <span className="charts-headline muted" aria-label="Over the window">
      {counted(s.total.runs, 'run')} · {formatRate(s.total.perSecond)} · p95 {s.total.p95 !== undefined ? ms(s.total.p95) : '–'} · errors {pct(s.total.errorRate)}
      {rejected > 0 ? ` · ${rejected.toLocaleString('en-US')} rejected` : ''}
    </span>
  );
}

function MetricTable({ rows, scope, onPick }: { rows: MetricRow[]; scope: Scope; onPick(scope: Scope): void }) {
  if (rows.length === 0) return <p className="muted">No runs in this window yet: run an integration and send it requests.</p>;
  return (
    <table className="metric-table" aria-label="Flows and routes">
      <thead>
        <tr>
          <th scope="col">Flow</th>
          <th scope="col">Route</th>
          <th scope="col">Runs</th>
          <th scope="col">Rate</th>
          <th scope="col">p50</th>
          <th scope="col">p95</th>
          <th scope="col">p99</th>
          <th scope="col">Errors</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const picked = scope.integration === r.integration && scope.flow === r.flow && scope.route === (r.route ?? '');
          return (
            <tr key={`${r.integration} ${r.flow} ${r.route ?? ''}`} aria-selected={picked} className={picked ? 'selected' : undefined}>
              <td>
                <button type="button" className="link" onClick={() => onPick({ integration: r.integration, flow: r.flow, route: '' })} title="Chart this flow, every route">
                  <span className="muted">{r.integration}/</span>
                  {r.flow}
                </button>
              </td>
              <td>
                {r.route ? (
                  <button type="button" className="link" onClick={() => onPick({ integration: r.integration, flow: r.flow, route: r.route! })} title="Chart this route">
                    <code>{r.route}</code>
                  </button>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
              <td>{r.runs.toLocaleString('en-US')}</td>
              <td>{formatRate(r.perSecond)}</td>
              <td>{r.p50 !== undefined ? ms(r.p50) : '–'}</td>
              <td>{r.p95 !== undefined ? ms(r.p95) : '–'}</td>
              <td>{r.p99 !== undefined ? ms(r.p99) : '–'}</td>
              <td className={r.errorRate > 0 ? 'error' : undefined}>{pct(r.errorRate)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
