import { type CelHandler, type Duration } from './cel-values.ts';

/** Conversions cel-js lacks between timestamps, durations, ints and strings (cel-go's standard ones). */

const TS = 'google.protobuf.Timestamp';
const DUR = 'google.protobuf.Duration';

/** RFC 3339 in UTC with only the fraction digits needed, as cel-go prints timestamps. */
export function timestampText(d: Date): string {
  const [whole, fraction = ''] = d.toISOString().slice(0, -1).split('.');
  const digits = fraction.replace(/0+$/, '');
  return `${whole}${digits ? `.${digits}` : ''}Z`;
}

export const TIME: Record<string, CelHandler> = {
  [`int(${TS}): int`]: (d: Date) => BigInt(Math.floor(d.getTime() / 1000)),
  [`string(${TS}): string`]: timestampText,
  [`string(${DUR}): string`]: (d: Duration) => d.toString(),
  [`timestamp(${TS}): ${TS}`]: (d: Date) => d,
  [`duration(${DUR}): ${DUR}`]: (d: Duration) => d,
};
