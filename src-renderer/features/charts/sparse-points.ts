import type uPlot from 'uplot';

/** A series with at most one value per this many CSS pixels of plot is drawn with its points. */
const SPARSE_SPACING_PX = 16;

/**
 * Which values of a series are drawn as dots (uPlot's `points.filter`): lines leave gaps open
 * (spanGaps off), so a value with no neighbour on either side draws no line at all: one request
 * in a 5-minute window left the latency chart empty. Those always get a dot; a series with only a
 * few values in view gets a dot on each, as short dashes are easy to miss.
 */
export function sparsePoints(u: uPlot, seriesIdx: number): number[] | null {
  const values = u.data[seriesIdx];
  if (!values || values.length === 0) return null;
  const [from, to] = u.series[seriesIdx].idxs ?? [0, values.length - 1];
  const present: number[] = [];
  for (let i = from; i <= to; i++) if (values[i] != null) present.push(i);
  if (present.length === 0) return null;
  const widthPx = u.bbox.width / (globalThis.devicePixelRatio || 1);
  if (present.length * SPARSE_SPACING_PX <= widthPx) return present;
  const lone = present.filter((i) => (i === from || values[i - 1] == null) && (i === to || values[i + 1] == null));
  return lone.length > 0 ? lone : null;
}
