import type { RunOrigin, RunSummary } from '../../../shared/trace-types.ts';
import type { RunRecord, StoredStep } from './run-record.ts';
import { SEARCH_TEXT_CHARS } from './run-record.ts';

/** A text filter: where the query occurs, ignoring case, as a literal. */
export class TextQuery {
  private readonly pattern: RegExp;
  private readonly length: number;

  constructor(text: string) {
    this.pattern = new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
    this.length = text.length;
  }

  /** A field shorter than the query cannot hold it: most are, and a length costs less than a match. */
  in(field: string | undefined): boolean {
    return field !== undefined && field.length >= this.length && this.pattern.test(field);
  }
}

/** Whether the text occurs in one of the run's fields (never across two): tested field by field, building nothing. */
export function matchesText(record: RunRecord, text: TextQuery): boolean {
  const s = record.summary;
  if (text.in(s.flow) || text.in(s.integration) || text.in(s.outcome) || text.in(s.correlationId) || text.in(s.runId) || text.in(s.route) || text.in(s.path)) return true;
  if (text.in(s.method) || (s.status !== undefined && text.in(String(s.status))) || text.in(s.error) || text.in(s.traceId) || text.in(s.test)) return true;
  if (text.in(record.stepText)) return true;
  return text.in(s.rejection?.reason) || text.in(record.searchText);
}

/** Its steps' names, blocks and errors as one text, what a search finds once the steps left memory. */
export function stepTextOf(steps: readonly StoredStep[]): string | undefined {
  const parts: string[] = [];
  for (const step of steps) {
    if (step.name) parts.push(step.name);
    if (step.block) parts.push(step.block);
    if (step.error) parts.push(step.error);
  }
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/**
 * A run's message as text for search: the body that came in, its vars (header values among
 * them) and the body that went out, cut at SEARCH_TEXT_CHARS. Present when steps were recorded
 * with their messages; a request's capture adds its exact text either way.
 */
export function messageText(input: unknown, output: unknown): string {
  // One function for the three parts, no closure per run: it runs for every run stored.
  let text = partText(bodyOf(input), '', SEARCH_TEXT_CHARS);
  text = partText(varsOf(input), text, SEARCH_TEXT_CHARS);
  return partText(bodyOf(output), text, SEARCH_TEXT_CHARS);
}

function bodyOf(message: unknown): unknown {
  return message !== null && typeof message === 'object' ? (message as { body?: unknown }).body : undefined;
}

function varsOf(message: unknown): unknown {
  return message !== null && typeof message === 'object' ? (message as { vars?: unknown }).vars : undefined;
}

/** `text` with the value's text added on a line of its own, within `limit` characters (each line break counted). */
function partText(value: unknown, text: string, limit: number): string {
  // What is left: the limit less the text and the line break after each part so far.
  const room = text === '' ? limit : limit - text.length - 1;
  if (room <= 0 || value === undefined || value === null) return text;
  let part: string;
  try {
    part = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return text;
  }
  if (part === undefined || part === '' || part === '{}') return text;
  if (part.length > room) part = part.slice(0, room);
  return text === '' ? part : `${text}\n${part}`;
}

/**
 * The status filter: a code (`404`), a class (`4xx`), or several separated by commas or spaces
 * (`200, 4xx`, as the Status box's placeholder shows it; read as one term, that matched nothing).
 * A term that is neither matches no run.
 */
export function statusTest(status: string | undefined): ((s: number | undefined) => boolean) | undefined {
  const terms = (status ?? '').toLowerCase().split(/[\s,]+/).filter((t) => t !== '');
  if (terms.length === 0) return undefined;
  const tests = terms.map(statusTermTest);
  return (s) => s !== undefined && tests.some((t) => t(s));
}

function statusTermTest(term: string): (s: number) => boolean {
  const cls = /^([1-5])xx$/.exec(term);
  if (cls) {
    const base = Number(cls[1]) * 100;
    return (s) => s >= base && s < base + 100;
  }
  const exact = Number(term);
  if (Number.isInteger(exact)) return (s) => s === exact;
  return () => false;
}

/** A run of a flow test, a re-run from a step, or neither (a source or a request started it). */
export function originOf(s: RunSummary): RunOrigin {
  return s.test !== undefined ? 'test' : s.forkedFrom !== undefined ? 'rerun' : 'live';
}
