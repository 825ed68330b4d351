export type Path = Array<string | number>;

export interface ValueChange {
  path: Path;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

const MAX_CHANGES = 500;

/**
 * What differs between two JSON values, as the leaf paths that were added, removed or changed.
 * Objects are compared key by key and lists index by index; a value of another type is one
 * change. Bounded, so comparing two large bodies cannot stall the window.
 */
export function diffValues(before: unknown, after: unknown, path: Path = [], out: ValueChange[] = []): ValueChange[] {
  if (out.length >= MAX_CHANGES) return out;
  if (Object.is(before, after)) return out;
  const bothObjects = isObject(before) && isObject(after);
  const bothLists = Array.isArray(before) && Array.isArray(after);
  if (bothLists) {
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++) {
      if (i >= before.length) out.push({ path: [...path, i], kind: 'added', after: after[i] });
      else if (i >= after.length) out.push({ path: [...path, i], kind: 'removed', before: before[i] });
      else diffValues(before[i], after[i], [...path, i], out);
    }
    return out;
  }
  if (bothObjects && !isMarker(before) && !isMarker(after)) {
    for (const k of Object.keys(before)) {
      if (!Object.hasOwn(after, k)) out.push({ path: [...path, k], kind: 'removed', before: before[k] });
      else diffValues(before[k], after[k], [...path, k], out);
    }
    for (const k of Object.keys(after)) if (!Object.hasOwn(before, k)) out.push({ path: [...path, k], kind: 'added', after: after[k] });
    return out;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) out.push({ path, kind: 'changed', before, after });
  return out;
}

/** The paths of the changes and of every object around them, JSON-encoded, for highlighting. */
export function changedPaths(changes: readonly ValueChange[]): Set<string> {
  const set = new Set<string>();
  for (const c of changes) set.add(JSON.stringify(c.path));
  return set;
}

export function pathText(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : /^[A-Za-z_$][\w$]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`)).join('') || '(whole value)';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isMarker(v: Record<string, unknown>): boolean {
  return '$truncated' in v && Object.keys(v).length === 1;
}
