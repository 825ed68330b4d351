import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { clockTime } from '../../shell/format.ts';
import { sparsePoints } from './sparse-points.ts';
import { themeColor } from './theme-colors.ts';

export interface ChartLine {
  label: string;
  /** A theme variable, e.g. `--accent`. */
  color: string;
  values: Array<number | null>;
  /** Filled below the line. */
  fill?: boolean;
  dash?: number[];
}

const HEIGHT = 150;

/**
 * One time chart drawn by uPlot on a canvas: made once, then only given new data (a live update
 * redraws a canvas, it builds no DOM), and sized to its box as the box changes.
 */
export function TimeChart({ title, times, lines, unit, label }: { title: string; times: number[]; lines: ChartLine[]; unit: (v: number) => string; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);
  const shape = lines.map((l) => `${l.label}:${l.color}`).join('|');
  const data: uPlot.AlignedData = [times.map((t) => t / 1000), ...lines.map((l) => l.values)];
  const latest = useRef(data);
  latest.current = data;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const text = themeColor('--muted', '#777');
    const grid = themeColor('--row-alt', '#eee');
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: HEIGHT,
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false }, points: { size: 6 } },
      scales: { x: { time: true }, y: { range: (_u, min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [
        { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, values: (_u, splits) => clockTicks(splits) },
        { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, size: 64, values: (_u, splits) => splits.map((v) => (v === 0 ? '0' : unit(v))) },
      ],
      series: [
        {},
        ...lines.map((l) => {
          const stroke = themeColor(l.color, '#36c');
          return { label: l.label, stroke, width: 1.5, dash: l.dash, fill: l.fill ? stroke.replace(/^rgb\((.*)\)$/, 'rgba($1, 0.12)') : undefined, spanGaps: false, points: { show: false, filter: sparsePoints, size: 6, fill: stroke }, value: (_u: uPlot, v: number | null) => (v === null || v === undefined ? '–' : unit(v)) };
        }),
      ],
    };
    const u = new uPlot(opts, latest.current, el);
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = undefined;
    };
    // Made again only when the lines themselves change; new values go through setData below.
  }, [shape]);

  useEffect(() => {
    plot.current?.setData(latest.current);
  });

  return (
    <figure className="time-chart" aria-label={label}>
      <figcaption>{title}</figcaption>
      <div ref={box} className="time-chart-canvas" />
    </figure>
  );
}

/**
 * Tick labels on the 24-hour clock the rest of the studio shows (uPlot's default is "8:10pm"):
 * HH:MM, with seconds when the ticks are less than a minute apart.
 */
function clockTicks(splits: number[]): string[] {
  const step = splits.length > 1 ? splits[1] - splits[0] : 60;
  return splits.map((seconds) => clockTime(seconds * 1000).slice(0, step < 60 ? 8 : 5));
}
