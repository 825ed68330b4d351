import type { TruncatedValue } from '../../../shared/trace-types.ts';

/** Longest string shown whole; longer ones show their start. */
export const STRING_LIMIT = 2_000;
const STRING_PREVIEW = 400;
/** Longest list shown whole; longer ones show their first items. */
export const LIST_LIMIT = 100;
const LIST_PREVIEW = 20;

/**
 * A value as the inspector shows it: strings and lists past their limit are replaced, where they
 * occur, by a TruncatedValue marker naming their path, so a large body costs the window only what
 * fits on screen and the full value is one `traceValue` call away.
 */
export function viewOf(value: unknown, path: Array<string | number> = []): unknown {
  if (typeof value === 'string') {
    if (value.length <= STRING_LIMIT) return value;
    return marker(value.slice(0, STRING_PREVIEW), value.length, path);
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (value.length > LIST_LIMIT) {
      return marker(
        value.slice(0, LIST_PREVIEW).map((v, i) => viewOf(v, [...path, i])),
        value.length,
        path,
      );
    }
    return value.map((v, i) => viewOf(v, [...path, i]));
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = viewOf(v, [...path, k]);
  return out;
}

/** The value at `path` inside `value`, or undefined when the path leads nowhere. */
export function valueAt(value: unknown, path: ReadonlyArray<string | number>): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) {
      if (typeof key !== 'number') return undefined;
      current = current[key];
    } else {
      if (!Object.hasOwn(current, key)) return undefined;
      current = (current as Record<string, unknown>)[String(key)];
    }
  }
  return current;
}

function marker(preview: unknown, length: number, path: Array<string | number>): TruncatedValue {
  return { $truncated: { preview, length, path } };
}
