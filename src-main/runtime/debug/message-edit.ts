import { deepCopy, toSnapshot, type Message } from '../core/message.ts';

/**
 * Sets a value inside a paused run's message: `['body']` or `['vars']` replaces the whole body or
 * vars, `['body', 'customer']` one field, `['vars', 'items', 0, 'qty']` one deep inside. Every
 * step of the path but the last must exist. Returns the value it replaced (as JSON) for the
 * trace's before/after; throws saying which part of the path is wrong.
 */
export function setInMessage(msg: Message, path: ReadonlyArray<string | number>, value: unknown): unknown {
  const [root, ...rest] = path;
  if (root !== 'body' && root !== 'vars') throw new Error(`an edit starts at body or vars, not ${JSON.stringify(root ?? '')}; headers cannot be edited`);
  const json = checkedJson(value, pathText(path));
  if (rest.length === 0) {
    const before = toSnapshot(root === 'body' ? msg.body : msg.vars);
    if (root === 'vars') {
      if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Error('vars is an object, e.g. {"id": "42"}');
      msg.vars = json as Record<string, unknown>;
    } else msg.body = json;
    return before;
  }
  let parent: unknown = root === 'body' ? msg.body : msg.vars;
  for (let i = 0; i < rest.length - 1; i++) {
    parent = child(parent, rest[i], path.slice(0, i + 2));
  }
  const key = rest[rest.length - 1];
  if (Array.isArray(parent)) {
    const index = typeof key === 'number' ? key : Number.NaN;
    if (!Number.isInteger(index) || index < 0 || index > parent.length) throw new Error(`${pathText(path)}: ${String(key)} is not an index of a list of ${parent.length}`);
    const before = toSnapshot(parent[index]);
    parent[index] = json;
    return before;
  }
  if (parent === null || typeof parent !== 'object') throw new Error(`${pathText(path.slice(0, -1))} is ${describe(parent)}, not an object whose fields can be set`);
  const record = parent as Record<string, unknown>;
  const before = toSnapshot(record[String(key)]);
  record[String(key)] = json;
  return before;
}

/** `body.items[0].qty` for `['body', 'items', 0, 'qty']`. */
export function pathText(path: ReadonlyArray<string | number>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : /^[A-Za-z_][\w]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`)).join('');
}

function child(parent: unknown, key: string | number, at: ReadonlyArray<string | number>): unknown {
  if (Array.isArray(parent) && typeof key === 'number' && key >= 0 && key < parent.length) return parent[key];
  if (parent !== null && typeof parent === 'object' && !Array.isArray(parent) && Object.hasOwn(parent, String(key))) return (parent as Record<string, unknown>)[String(key)];
  throw new Error(`${pathText(at)} does not exist in the message; set its parent instead`);
}

/** A JSON value (copied, so later edits do not reach back into the caller's object). */
function checkedJson(value: unknown, where: string): unknown {
  if (value === undefined) throw new Error(`${where}: a value is needed (null clears it)`);
  try {
    return deepCopy(JSON.parse(JSON.stringify(value)));
  } catch (err) {
    throw new Error(`${where}: not a JSON value (${(err as Error).message})`);
  }
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'string' ? 'a string' : typeof value === 'number' ? 'a number' : typeof value === 'boolean' ? 'a boolean' : 'raw content';
}
