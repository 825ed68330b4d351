/**
 * What each StudioApi argument must be, checked by the backend before a call runs, so a window
 * (or anything else that reaches the transport) cannot hand a method a number where it reads a
 * file name, an object whose `toString` is not a function, a NUL byte or a megabyte-long id.
 * A spec is `'<argument name>:<kind>'`, with `?` when the argument may be left out (or null):
 *
 * - `name`: a string that names something (an id, a file, a key): not empty (unless optional),
 *   no NUL or other control character, at most MAX_NAME_LENGTH characters;
 * - `key`: a KV key: a string, not empty, of any length and characters, as the platform stores
 *   them (spec 1 §2.4 limits neither), so every key a flow can write the studio can open;
 * - `text`: any string (file contents, an expression, a value typed in a dialog);
 * - `int`: a whole number from 0 up; `number`: any finite number; `bool`: true or false;
 * - `object`: a JSON object (its fields are checked by the method); `list`: an array; `any`: anything.
 *
 * The compiler holds each spec to the method's parameter types (studio-api.ts), so a spec
 * cannot say `name` where the method takes a number.
 */

export type ArgKind = 'name' | 'key' | 'text' | 'int' | 'number' | 'bool' | 'object' | 'list' | 'any';

/** The longest name any argument may carry; longer is refused before it reaches a file system or a store. */
export const MAX_NAME_LENGTH = 1024;

type KindsFor<T> = [T] extends [string] ? 'name' | 'key' | 'text' : [T] extends [number] ? 'int' | 'number' : [T] extends [boolean] ? 'bool' : [T] extends [readonly unknown[]] ? 'list' : [T] extends [object] ? 'object' : 'any';
type Optional<T> = undefined extends T ? '?' : null extends T ? '?' : '';

/** The spec an argument of type T may have. */
export type ArgSpecFor<T> = `${string}:${KindsFor<NonNullable<T>> | 'any'}${Optional<T>}`;

/** The specs of a method's parameters, one per parameter, in order. */
export type ArgSpecs<P extends readonly unknown[]> = { readonly [K in keyof P]-?: ArgSpecFor<P[K]> };

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Why `args` do not fit `specs`, naming the argument (`readFile: argument 2 "file" must be …`);
 * undefined when they fit.
 */
export function argumentProblem(method: string, specs: readonly string[], args: readonly unknown[]): string | undefined {
  if (args.length > specs.length) return `${method} takes ${specs.length} argument${specs.length === 1 ? '' : 's'}, got ${args.length}`;
  for (let i = 0; i < specs.length; i++) {
    const [name, kindText] = specs[i].split(':');
    const optional = kindText.endsWith('?');
    const kind = (optional ? kindText.slice(0, -1) : kindText) as ArgKind;
    const value = args[i];
    const which = `${method}: argument ${i + 1} "${name}"`;
    if (value === undefined || value === null) {
      if (optional || kind === 'any') continue;
      return `${which} is missing`;
    }
    // An optional name left empty is the renderer's "none" (a cleared field): the method decides.
    if (optional && value === '') continue;
    const problem = kindProblem(kind, value);
    if (problem) return `${which} ${problem}`;
  }
  return undefined;
}

function kindProblem(kind: ArgKind, value: unknown): string | undefined {
  switch (kind) {
    case 'name':
      if (typeof value !== 'string') return `must be a name (a string), got ${describe(value)}`;
      if (value === '') return 'must not be empty';
      if (value.length > MAX_NAME_LENGTH) return `is ${value.length} characters long; names are at most ${MAX_NAME_LENGTH}`;
      if (CONTROL.test(value)) return 'contains a NUL or another control character, which no name may hold';
      return undefined;
    case 'key':
      if (typeof value !== 'string') return `must be a key (a string), got ${describe(value)}`;
      return value === '' ? 'must not be empty' : undefined;
    case 'text':
      return typeof value === 'string' ? undefined : `must be text (a string), got ${describe(value)}`;
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? undefined : `must be a whole number from 0 up, got ${describe(value)}`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : `must be a number, got ${describe(value)}`;
    case 'bool':
      return typeof value === 'boolean' ? undefined : `must be true or false, got ${describe(value)}`;
    case 'object':
      return typeof value === 'object' && !Array.isArray(value) ? undefined : `must be an object, got ${describe(value)}`;
    case 'list':
      return Array.isArray(value) ? undefined : `must be a list, got ${describe(value)}`;
    case 'any':
      return undefined;
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  // Never quoted: the text may be a secret sent in the wrong place.
  if (typeof value === 'string') return `text of ${value.length} characters`;
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}
