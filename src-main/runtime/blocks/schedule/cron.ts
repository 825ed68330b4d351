import { createRequire } from 'node:module';

/**
 * Cron expressions, evaluated by croner: five fields (minute hour day-of-month month day-of-week)
 * or six with seconds first; `*`, numbers, ranges `a-b`, lists `a,b`, steps `*\/n` and `a-b/n`,
 * names for months (jan–dec) and weekdays (sun–sat, 7 is Sunday too). As in classic cron, when
 * both day fields are restricted a day matching either one fires. `@hourly`, `@daily`,
 * `@weekly`, `@monthly` and `@yearly` are shorthands.
 *
 * The clock is UTC, the process's local time, or a named IANA time zone. Daylight saving, as
 * croner does it: a time that does not exist on the spring-forward day (02:30 in New York) fires
 * at the first instant after the gap (03:00 local), never silently skipping the day; a time that
 * occurs twice on the fall-back day fires once, at its first occurrence.
 *
 * Only field-by-field error messages are ours: croner says what is wrong, this file says in which
 * field and in the user's words.
 */
export interface CronSchedule {
  readonly source: string;
  /** The first firing time strictly after `after`. */
  next(after: Date): Date;
}

/** `utc`, `local` (the process's time zone) or an IANA name such as `Europe/Berlin`. */
export type CronTimezone = string;

const FIELDS = [
  { name: 'second', min: 0, max: 59 },
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, example: 'jan' },
  { name: 'day of week', min: 0, max: 7, example: 'sun' },
] as const;

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/**
 * croner, required on the first cron expression parsed (a runtime without schedules never loads
 * it), synchronously as parsing is; the CLI build keeps it external (build-cli.ts), so the
 * runtime's modules do not carry it.
 */
let croner: typeof import('croner') | undefined;
const requireHere = createRequire(import.meta.url);
function cronerCron(): typeof import('croner').Cron {
  return (croner ??= requireHere('croner') as typeof import('croner')).Cron;
}

/** Parses; throws naming the field and what is wrong with it, or the time zone. */
export function parseCron(source: string, timezone: CronTimezone = 'utc'): CronSchedule {
  const text = MACROS[source.trim().toLowerCase()] ?? source.trim();
  const parts = text.split(/\s+/);
  if (parts.length !== 5 && parts.length !== 6) {
    throw new Error(`"${source}" is not a cron expression: expected 5 fields (minute hour day month weekday) or 6 with seconds first, found ${parts.length}`);
  }
  const six = parts.length === 6 ? parts : ['0', ...parts];
  six.forEach((field, i) => checkField(six, i, field));
  const Cron = cronerCron();
  const cron = new Cron(six.join(' '), { paused: true, timezone: zoneOption(timezone) });
  return {
    source,
    next(after) {
      const t = cron.nextRun(after);
      if (!t) throw new Error(`cron "${source}" never fires`);
      return t;
    },
  };
}

/** The croner time zone for a `timezone` setting; throws for a name that is not a time zone. */
function zoneOption(timezone: CronTimezone): string | undefined {
  if (timezone === 'local') return undefined;
  if (timezone === 'utc') return 'Etc/UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw new Error(`timezone "${timezone}" is not utc, local or an IANA time zone name such as Europe/Berlin or America/New_York`);
  }
  return timezone;
}

/** Lets croner judge one field alone (every other field `*`), so its complaint names that field. */
function checkField(six: string[], index: number, text: string): void {
  const probe = six.map((field, i) => (i === index ? field : '*')).join(' ');
  try {
    new (cronerCron())(probe, { paused: true });
  } catch (err) {
    const field = FIELDS[index];
    const reason = (err as Error).message;
    if (/stepping/i.test(reason)) throw new Error(`cron ${field.name}: "${text}" has a bad step; write e.g. */5`);
    if (/larger than/i.test(reason)) throw new Error(`cron ${field.name}: range "${text}" runs backwards`);
    const names = 'example' in field ? ` or a name such as ${field.example}` : '';
    throw new Error(`cron ${field.name}: "${text}" is not between ${field.min} and ${field.max}${names}`);
  }
}
