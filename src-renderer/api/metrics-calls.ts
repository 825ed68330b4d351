import type { MetricsQuery, MetricsSeries, Sparklines } from '../../shared/metrics-types.ts';
import { studio } from './studio-client.ts';

/** The Charts view's and the sparklines' calls. */
export const metricsCalls = {
  series: (query: MetricsQuery): Promise<MetricsSeries> => studio.runMetrics(query),
  sparklines: (): Promise<Sparklines> => studio.runSparklines(),
};
