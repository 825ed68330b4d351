import { describe, expect, it } from 'vitest';
import { parseCron } from './cron.ts';

const next = (expr: string, after: string): string => parseCron(expr).next(new Date(after)).toISOString();

describe('cron expressions', () => {
  it.each([
    ['0 2 * * *', '2025-03-01T10:00:00Z', '2025-03-02T02:00:00.000Z'],
    ['*/15 * * * *', '2025-03-01T10:07:30Z', '2025-03-01T10:15:00.000Z'],
    ['0 9-17/4 * * mon-fri', '2025-03-01T10:00:00Z', '2025-03-03T09:00:00.000Z'],
    ['30 8 1 jan,jul *', '2025-03-01T00:00:00Z', '2025-07-01T08:30:00.000Z'],
    ['0 0 29 2 *', '2025-03-01T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['0 0 13 * 5', '2025-03-01T00:00:00Z', '2025-03-07T00:00:00.000Z'],
    ['0 0 * * 7', '2025-03-01T00:00:00Z', '2025-03-02T00:00:00.000Z'],
    ['*/10 * * * * *', '2025-03-01T10:00:05.500Z', '2025-03-01T10:00:10.000Z'],
    ['@hourly', '2025-03-01T10:00:00Z', '2025-03-01T11:00:00.000Z'],
    ['@weekly', '2025-03-01T10:00:00Z', '2025-03-02T00:00:00.000Z'],
  ])('%s after %s fires at %s', (expr, after, expected) => {
    expect(next(expr, after)).toBe(expected);
  });

  it('fires strictly after the given time, never at it', () => {
    expect(next('0 * * * *', '2025-03-01T10:00:00Z')).toBe('2025-03-01T11:00:00.000Z');
  });

  it.each([
    ['* * *', /expected 5 fields .* found 3/],
    ['61 * * * *', /cron minute: "61" is not between 0 and 59/],
    ['0 0 * foo *', /cron month: "foo" is not between 1 and 12 or a name such as jan/],
    ['*/0 * * * *', /cron minute: "\*\/0" has a bad step/],
    ['0 5-2 * * *', /range "5-2" runs backwards/],
  ])('refuses %s, saying which field is wrong', (expr, message) => {
    expect(() => parseCron(expr)).toThrow(message);
  });

  it('says so when an expression can never fire', () => {
    expect(() => parseCron('0 0 30 2 *').next(new Date('2025-01-01T00:00:00Z'))).toThrow(/never fires/);
  });
});

describe('cron in a named time zone', () => {
  const nextIn = (expr: string, zone: string, after: string): string => parseCron(expr, zone).next(new Date(after)).toISOString();

  it('reads the expression on that zone’s clock, in winter and in summer', () => {
    expect(nextIn('0 9 * * *', 'Europe/Berlin', '2025-01-10T12:00:00Z')).toBe('2025-01-11T08:00:00.000Z');
    expect(nextIn('0 9 * * *', 'Europe/Berlin', '2025-07-10T12:00:00Z')).toBe('2025-07-11T07:00:00.000Z');
  });

  it('fires 02:30 in New York on the spring-forward day at 03:00 local, the first instant after the gap, instead of skipping the day', () => {
    // 2025-03-09: clocks go from 02:00 EST straight to 03:00 EDT; 02:30 does not exist that day.
    const schedule = parseCron('30 2 * * *', 'America/New_York');
    const day = schedule.next(new Date('2025-03-08T12:00:00Z'));
    expect(day.toISOString()).toBe('2025-03-09T07:00:00.000Z'); // 03:00 EDT
    expect(schedule.next(day).toISOString()).toBe('2025-03-10T06:30:00.000Z'); // 02:30 EDT, as usual
  });

  it('fires 01:30 in New York once on the fall-back day, at its first occurrence', () => {
    // 2025-11-02: 01:00–02:00 happens twice (EDT, then EST).
    const schedule = parseCron('30 1 * * *', 'America/New_York');
    const day = schedule.next(new Date('2025-11-01T12:00:00Z'));
    expect(day.toISOString()).toBe('2025-11-02T05:30:00.000Z'); // 01:30 EDT
    expect(schedule.next(day).toISOString()).toBe('2025-11-03T06:30:00.000Z'); // next day, 01:30 EST
  });

  it('refuses a name that is not a time zone, saying what it takes', () => {
    expect(() => parseCron('0 2 * * *', 'Mars/Base')).toThrow('timezone "Mars/Base" is not utc, local or an IANA time zone name such as Europe/Berlin or America/New_York');
  });
});
