/**
 * Step paths as the edits read them: the keys of a path in the YAML document, the chain and index
 * of a step, and how the paths of other steps change when a step is inserted, removed or moved,
 * so that run counts, coverage and breakpoints stay on their steps through an edit.
 */

/** Where a step goes: a chain (`flows.f.steps`, `flows.f.steps[0].switch.cases[1].steps`) and a position in it, 0 = first. */
export interface StepPlace {
  chain: string;
  index: number;
}

export type DocKey = string | number;

/** `flows.f.steps[2].switch.cases[0].steps` → `['flows', 'f', 'steps', 2, 'switch', 'cases', 0, 'steps']`. */
export function keysOf(path: string): DocKey[] {
  const m = /^flows\.([^.[\]]+)((?:\.[^.[\]]+(?:\[\d+\])?)*)$/.exec(path);
  if (!m) throw new FlowEditError(`"${path}" is not a step path (like flows.orders.steps[2])`);
  const keys: DocKey[] = ['flows', m[1]];
  for (const part of m[2].match(/\.[^.[\]]+(?:\[\d+\])?/g) ?? []) {
    const p = /^\.([^.[\]]+)(?:\[(\d+)\])?$/.exec(part)!;
    keys.push(p[1]);
    if (p[2] !== undefined) keys.push(Number(p[2]));
  }
  return keys;
}

/** `flows.f.steps[2]` → chain `flows.f.steps`, index 2. */
export function placeOf(stepPath: string): StepPlace {
  const m = /^(.*)\[(\d+)\]$/.exec(stepPath);
  if (!m) throw new FlowEditError(`"${stepPath}" names no step: a step path ends in an index, like flows.orders.steps[2]`);
  return { chain: m[1], index: Number(m[2]) };
}

export const stepPathOf = (place: StepPlace): string => `${place.chain}[${place.index}]`;

/** True when `path` is `prefix` itself or lies inside it (`a.steps[1]` is inside `a`, `a.steps[10]` is not inside `a.steps[1]`). */
export function within(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
}

/** Maps a path before an edit to the same step's path after it; undefined when the step is gone. */
export type PathFollow = (path: string) => string | undefined;

export const unchanged: PathFollow = (path) => path;

export function chainFollows(...follows: PathFollow[]): PathFollow {
  return (path) => follows.reduce<string | undefined>((p, f) => (p === undefined ? undefined : f(p)), path);
}

/** The items of `chain` from `from` on move by `delta` (an insertion or a removal before them). */
export function shiftFrom(chain: string, from: number, delta: number): PathFollow {
  const prefix = `${chain}[`;
  return (path) => {
    if (!path.startsWith(prefix)) return path;
    const m = /^(\d+)\]/.exec(path.slice(prefix.length));
    if (!m) return path;
    const i = Number(m[1]);
    if (i < from) return path;
    return `${prefix}${i + delta}]${path.slice(prefix.length + m[0].length)}`;
  };
}

/** The step at `path` and everything inside it are gone. */
export function dropped(path: string): PathFollow {
  return (p) => (within(p, path) ? undefined : p);
}

/** An edit that cannot be made as asked; the message says why, for people. */
export class FlowEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlowEditError';
  }
}
