import { Environment } from '@marcbachmann/cel-js';
import type { DesignCelFunction } from '../../../shared/flow-design.ts';
import type { CelFunctionDef } from '../../runtime/core/registry-types.ts';

/** One line per standard function, for completion; cel-js lists signatures without words. */
const DESCRIPTIONS: Record<string, string> = {
  has: 'True when the field is present: `has(body.items)`, `has(vars.query.page)`.',
  size: 'Length of a string, bytes, list or map.',
  int: 'Converts to an integer: `int(vars.query.page)`, `int(body.count)`.',
  uint: 'Converts to an unsigned integer.',
  double: 'Converts to a double (JSON numbers already are).',
  string: 'Converts to a string: `string(body.total)`.',
  bool: 'Converts "true"/"false" to a boolean.',
  bytes: 'Converts a string to bytes.',
  dyn: 'Turns off type checking for its argument.',
  type: 'The type of a value, e.g. `type(body) == map`.',
  timestamp: 'Parses an RFC 3339 time: `timestamp("2025-09-03T10:00:00Z")`.',
  duration: 'Parses a duration: `duration("1h30m")`.',
  matches: 'True when the string matches the RE2 regular expression.',
  startsWith: 'True when the string starts with the argument.',
  endsWith: 'True when the string ends with the argument.',
  contains: 'True when the string contains the argument.',
  lowerAscii: 'The string in lower case (ASCII letters).',
  upperAscii: 'The string in upper case (ASCII letters).',
  trim: 'The string without leading and trailing white space.',
  indexOf: 'Index of the first occurrence of the argument, or -1.',
  lastIndexOf: 'Index of the last occurrence of the argument, or -1.',
  substring: 'Part of the string from start (to end): `"abcd".substring(1, 3)`.',
  split: 'Splits the string at each separator: `vars.tags.split(",")`.',
  join: 'Joins a list of strings: `["a", "b"].join(", ")`.',
  all: 'True when the predicate holds for every element: `body.items.all(i, i.price > 0)`.',
  exists: 'True when the predicate holds for some element: `body.items.exists(i, i.sku == "x")`.',
  exists_one: 'True when the predicate holds for exactly one element.',
  map: 'Transforms each element: `body.items.map(i, i.price * i.quantity)`.',
  filter: 'Keeps the elements for which the predicate holds: `body.items.filter(i, i.quantity > 0)`.',
  hasValue: 'True when the optional holds a value.',
  value: 'The value of the optional (fails when empty).',
  or: 'This optional when it holds a value, else the other.',
  orValue: 'The optional’s value, else the given default: `vars.?query.?page.orValue("1")`.',
  of: 'An optional holding the value.',
  none: 'An empty optional.',
  bind: 'Binds a name to a value inside an expression: `cel.bind(t, body.total, t > 10 ? t : 0)`.',
  json: 'Parses bytes as JSON.',
  hex: 'The bytes as hexadecimal text.',
  base64: 'The bytes as base64 text.',
  at: 'The byte at an index.',
};

/** Receiver types as a person reads them. */
function receiverLabel(type: string): string {
  if (type.startsWith('list')) return 'list';
  if (type.startsWith('map')) return 'map';
  if (type.startsWith('optional')) return 'optional';
  if (type === 'google.protobuf.Timestamp') return 'timestamp';
  if (type === 'google.protobuf.Duration') return 'duration';
  if (type === 'OptionalNamespace') return 'optional';
  if (type === 'CelNamespace') return 'cel';
  return type;
}

function readable(signature: string): string {
  return signature
    .replace(/google\.protobuf\.Timestamp/g, 'timestamp')
    .replace(/google\.protobuf\.Duration/g, 'duration')
    .replace(/OptionalNamespace/g, 'optional')
    .replace(/CelNamespace/g, 'cel')
    .replace(/\bast\b/g, 'expr');
}

/**
 * Every function and macro a CEL setting can call: the standard library as cel-js provides it
 * (the same library definitions compile with) and this product's own functions.
 */
export function celCatalog(ours: readonly CelFunctionDef[]): DesignCelFunction[] {
  const env = new Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true });
  const oursByName = new Map(ours.map((f) => [f.signature.split('(')[0].trim(), f]));
  for (const f of ours) env.registerFunction(f.signature, () => null, { description: f.description });
  const grouped = new Map<string, { name: string; receiver?: string; signatures: string[] }>();
  for (const f of env.getDefinitions().functions) {
    const receiver = f.receiverType ? receiverLabel(f.receiverType) : undefined;
    const key = `${receiver ?? ''}.${f.name}`;
    let g = grouped.get(key);
    if (!g) grouped.set(key, (g = { name: f.name, receiver, signatures: [] }));
    g.signatures.push(readable(f.signature));
  }
  const out: DesignCelFunction[] = [];
  for (const g of grouped.values()) {
    const own = g.receiver ? undefined : oursByName.get(g.name);
    // optional.of() and cel.bind() are called on a namespace, so they read as functions.
    const namespaced = (g.receiver === 'optional' && /^optional\.(of|none)\(/.test(g.signatures[0])) || g.receiver === 'cel';
    out.push({
      name: namespaced ? `${g.receiver}.${g.name}` : g.name,
      signature: g.signatures.length > 2 ? `${g.signatures[0]} (+${g.signatures.length - 1} more)` : g.signatures.join(' · '),
      description: own?.description ?? DESCRIPTIONS[g.name] ?? '',
      kind: g.receiver && !namespaced ? 'method' : 'function',
      ...(g.receiver && !namespaced ? { receiver: g.receiver } : {}),
      ...(own ? { ours: true } : {}),
    });
  }
  return out.sort((a, b) => Number(b.ours ?? false) - Number(a.ours ?? false) || a.name.localeCompare(b.name));
}
