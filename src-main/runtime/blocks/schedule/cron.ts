/**
 * Cron expressions: five fields (minute hour day-of-month month day-of-week) or six with
 * seconds first. Each field takes `*`, numbers, ranges `a-b`, lists `a,b`, steps `*\/n` and
 * `a-b/n`, and names for months (jan–dec) and weekdays (sun–sat, 7 is Sunday too). As in
 * classic cron, when both day fields are restricted a day matching either one fires.
 * `@hourly`, `@daily`, `@weekly`, `@monthly` and `@yearly` are shorthands.
 *
 * Written here rather than taken from a package: the parser is small, and the runtime needs
 * only "the next time after t", in UTC or the process's local time.
 */
export interface CronSchedule {
  readonly source: string;
  /** The first firing time strictly after `after`. */
  next(after: Date): Date;
}

interface Field {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const SECOND: Field = { name: 'second', min: 0, max: 59 };
const MINUTE: Field = { name: 'minute', min: 0, max: 59 };
const HOUR: Field = { name: 'hour', min: 0, max: 23 };
const DAY: Field = { name: 'day of month', min: 1, max: 31 };
const MONTH: Field = { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] };
const WEEKDAY: Field = { name: 'day of week', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] };

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Parses; throws naming the field and what is wrong with it. */
export function parseCron(source: string, timezone: 'utc' | 'local' = 'utc'): CronSchedule {
  const text = MACROS[source.trim().toLowerCase()] ?? source.trim();
  const parts = text.split(/\s+/);
  if (parts.length !== 5 && parts.length !== 6) {
    throw new Error(`"${source}" is not a cron expression: expected 5 fields (minute hour day month weekday) or 6 with seconds first, found ${parts.length}`);
  }
  const [sec, min, hour, day, month, weekday] = parts.length === 6 ? parts : ['0', ...parts];
  const seconds = parseField(sec, SECOND);
  const minutes = parseField(min, MINUTE);
  const hours = parseField(hour, HOUR);
  const days = parseField(day, DAY);
  const months = parseField(month, MONTH);
  const weekdays = parseField(weekday, WEEKDAY);
  if (weekdays.has(7)) weekdays.add(0);
  const dayRestricted = day !== '*' && day !== '?';
  const weekdayRestricted = weekday !== '*' && weekday !== '?';
  const clock = timezone === 'utc' ? utcClock : localClock;

  const dayMatches = (d: Date): boolean => {
    const dom = days.has(clock.day(d));
    const dow = weekdays.has(clock.weekday(d));
    if (dayRestricted && weekdayRestricted) return dom || dow;
    if (dayRestricted) return dom;
    if (weekdayRestricted) return dow;
    return true;
  };

  return {
    source,
    next(after) {
      const t = new Date(Math.floor(after.getTime() / 1000) * 1000 + 1000);
      // Each step jumps to the start of the next candidate unit; bounded, so an impossible
      // expression (Feb 30) fails instead of spinning.
      for (let i = 0; i < 100_000; i++) {
        if (!months.has(clock.month(t))) {
          clock.nextMonth(t);
          continue;
        }
        if (!dayMatches(t)) {
          clock.nextDay(t);
          continue;
        }
        if (!hours.has(clock.hour(t))) {
          clock.nextHour(t);
          continue;
        }
        if (!minutes.has(clock.minute(t))) {
          clock.nextMinute(t);
          continue;
        }
        if (!seconds.has(clock.second(t))) {
          t.setTime(t.getTime() + 1000);
          continue;
        }
        return t;
      }
      throw new Error(`cron "${source}" never fires`);
    },
  };
}

function parseField(text: string, f: Field): Set<number> {
  const out = new Set<number>();
  for (const item of text.toLowerCase().split(',')) {
    const [range, stepText] = item.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`cron ${f.name}: "${item}" has a bad step; write e.g. */5`);
    let lo: number;
    let hi: number;
    if (range === '*' || range === '?') {
      lo = f.min;
      hi = f === WEEKDAY ? 6 : f.max;
    } else if (range.includes('-')) {
      const [a, b] = range.split('-');
      lo = value(a, f);
      hi = value(b, f);
      if (lo > hi) throw new Error(`cron ${f.name}: range "${range}" runs backwards`);
    } else {
      lo = value(range, f);
      hi = stepText === undefined ? lo : f === WEEKDAY ? 6 : f.max;
    }
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

function value(text: string, f: Field): number {
  const named = f.names?.indexOf(text) ?? -1;
  const n = named >= 0 ? named + (f === MONTH ? 1 : 0) : /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < f.min || n > f.max) {
    throw new Error(`cron ${f.name}: "${text}" is not between ${f.min} and ${f.max}${f.names ? ` or a name such as ${f.names[0]}` : ''}`);
  }
  return n;
}

interface Clock {
  month(d: Date): number;
  day(d: Date): number;
  weekday(d: Date): number;
  hour(d: Date): number;
  minute(d: Date): number;
  second(d: Date): number;
  nextMonth(d: Date): void;
  nextDay(d: Date): void;
  nextHour(d: Date): void;
  nextMinute(d: Date): void;
}

const utcClock: Clock = {
  month: (d) => d.getUTCMonth() + 1,
  day: (d) => d.getUTCDate(),
  weekday: (d) => d.getUTCDay(),
  hour: (d) => d.getUTCHours(),
  minute: (d) => d.getUTCMinutes(),
  second: (d) => d.getUTCSeconds(),
  nextMonth: (d) => d.setTime(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)),
  nextDay: (d) => d.setTime(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)),
  nextHour: (d) => d.setTime(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1)),
  nextMinute: (d) => d.setTime(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes() + 1)),
};

const localClock: Clock = {
  month: (d) => d.getMonth() + 1,
  day: (d) => d.getDate(),
  weekday: (d) => d.getDay(),
  hour: (d) => d.getHours(),
  minute: (d) => d.getMinutes(),
  second: (d) => d.getSeconds(),
  nextMonth: (d) => d.setTime(new Date(d.getFullYear(), d.getMonth() + 1, 1).getTime()),
  nextDay: (d) => d.setTime(new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime()),
  nextHour: (d) => d.setTime(new Date(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours() + 1).getTime()),
  nextMinute: (d) => d.setTime(new Date(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes() + 1).getTime()),
};
