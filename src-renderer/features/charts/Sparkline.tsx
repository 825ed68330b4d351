/**
 * A run-rate sparkline as one SVG path (30 points need no chart library): runs per second over
 * the last five minutes, with the steps that had errors marked.
 */
export function Sparkline({ perSecond, errors, label }: { perSecond: number[]; errors: number[]; label: string }) {
  const w = 120;
  const h = 22;
  const max = Math.max(...perSecond, 0);
  if (perSecond.length < 2) return null;
  const x = (i: number): number => (i / (perSecond.length - 1)) * w;
  const y = (v: number): number => h - 2 - (max > 0 ? (v / max) * (h - 4) : 0);
  const d = perSecond.map((v, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join('');
  const now = perSecond[perSecond.length - 1];
  return (
    <span className="sparkline" role="img" aria-label={label} title={`${label}: ${formatRate(now)} now, peak ${formatRate(max)} (last 5 min)`}>
      <svg width={w} height={h} viewBox={`0 0 ${w} ${h}`} aria-hidden="true">
        <path d={`${d}L${w},${h}L0,${h}Z`} className="spark-area" />
        <path d={d} className="spark-line" />
        {errors.map((e, i) => (e > 0 ? <circle key={i} cx={x(i)} cy={y(perSecond[i])} r={1.8} className="spark-error" /> : null))}
      </svg>
      <span className="spark-now">{formatRate(now)}</span>
    </span>
  );
}

export function formatRate(perSecond: number): string {
  return perSecond >= 100 ? `${Math.round(perSecond)}/s` : perSecond >= 1 ? `${perSecond.toFixed(1)}/s` : perSecond > 0 ? `${(perSecond * 60).toFixed(1)}/min` : '0/s';
}
