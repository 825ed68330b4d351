import { Environment } from '@marcbachmann/cel-js';
import { CEL_FUNCTIONS, CEL_NAMESPACES } from '../../../shared/cel-functions.ts';
import type { DesignCelFunction } from '../../../shared/flow-design.ts';
import { type CelFunctionDef } from '../../runtime/index.ts';

/**
 * One line per function of the CEL standard library, for completion and hover; cel-js lists
 * signatures without words. The extension libraries are described in shared/cel-functions.ts.
 */
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
  all: 'True when the predicate holds for every element: `body.items.all(i, i.price > 0)`.',
  exists: 'True when the predicate holds for some element: `body.items.exists(i, i.sku == "x")`.',
  exists_one: 'True when the predicate holds for exactly one element.',
  existsOne: 'True when the predicate holds for exactly one element (cel-go’s spelling of exists_one).',
  map: 'Transforms each element: `body.items.map(i, i.price * i.quantity)`.',
  filter: 'Keeps the elements for which the predicate holds: `body.items.filter(i, i.quantity > 0)`.',
  json: 'Parses bytes as JSON.',
  hex: 'The bytes as hexadecimal text.',
  base64: 'The bytes as base64 text.',
  at: 'The byte at an index.',
};

/** Generated names inside cel.block, never written by hand. */
const HIDDEN = new Set(['cel.iterVar', 'cel.accuVar']);

const NAMESPACES: ReadonlySet<string> = new Set([...CEL_NAMESPACES, 'optional', 'cel']);

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

interface Entry {
  name: string;
  receiver?: string;
  signatures: string[];
  description: string;
  example?: string;
  library?: string;
  ours?: boolean;
}

/** `math.abs(int): int` → namespace function `math.abs`; `string.charAt(int)` → method on string. */
function declaredName(overload: string): { name: string; receiver?: string } | undefined {
  const m = /^(?:([\w.<>, ]+?)\.)?(\w+)\(/.exec(overload);
  if (!m) return undefined;
  const [, prefix, name] = m;
  if (!prefix) return { name };
  if (NAMESPACES.has(prefix) && !(prefix === 'optional' && /^optional\.(hasValue|value|orValue|or|optMap|optFlatMap)\(/.test(overload))) return { name: `${prefix}.${name}` };
  return { name, receiver: receiverLabel(prefix) };
}

/**
 * Every function and macro a CEL setting can call: the standard library as cel-js provides it
 * (the same library definitions compile with), the extension libraries declared in
 * shared/cel-functions.ts, and this product's own functions.
 */
export function celCatalog(ours: readonly CelFunctionDef[]): DesignCelFunction[] {
  const env = new Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true });
  const oursByName = new Map(ours.map((f) => [f.signature.split('(')[0].trim(), f]));
  for (const f of ours) env.registerFunction(f.signature, () => null, { description: f.description });
  const entries = new Map<string, Entry>();
  const entry = (name: string, receiver: string | undefined): Entry => {
    const key = `${receiver ?? ''}.${name}`;
    let e = entries.get(key);
    if (!e) entries.set(key, (e = { name, receiver, signatures: [], description: DESCRIPTIONS[name] ?? '' }));
    return e;
  };
  for (const f of env.getDefinitions().functions) {
    const receiver = f.receiverType ? receiverLabel(f.receiverType) : undefined;
    // optional.of() and cel.bind() are called on a namespace, so they read as functions.
    const namespaced = receiver === 'cel' || (receiver === 'optional' && f.receiverType === 'OptionalNamespace');
    const name = namespaced ? `${receiver}.${f.name}` : f.name;
    if (HIDDEN.has(name)) continue;
    const e = entry(name, namespaced ? undefined : receiver);
    e.signatures.push(readable(f.signature));
    const own = receiver ? undefined : oursByName.get(f.name);
    if (own) Object.assign(e, { description: own.description, ours: true });
  }
  for (const decl of CEL_FUNCTIONS) {
    for (const overload of decl.overloads) {
      const id = declaredName(overload);
      if (!id) continue; // syntax (`.?field`, `[?index]`): documented in docs/flows.md
      const e = entry(id.name, id.receiver);
      const signature = readable(overload);
      if (!e.signatures.includes(signature)) e.signatures.push(signature);
      // A standard function the library adds overloads to keeps its own words first.
      if (!e.description.includes(decl.description)) e.description = e.description && e.library === undefined && DESCRIPTIONS[id.name] ? `${e.description} ${decl.description}` : decl.description;
      e.example ??= `${decl.example.expression} → ${decl.example.result}`;
      e.library = decl.library;
    }
  }
  const out: DesignCelFunction[] = [];
  for (const e of entries.values()) {
    out.push({
      name: e.name,
      signature: e.signatures.length > 2 ? `${e.signatures[0]} (+${e.signatures.length - 1} more)` : e.signatures.join(' · '),
      description: e.description,
      kind: e.receiver ? 'method' : 'function',
      ...(e.receiver ? { receiver: e.receiver } : {}),
      ...(e.ours ? { ours: true } : {}),
      ...(e.example ? { example: e.example } : {}),
      ...(e.library ? { library: e.library } : {}),
    });
  }
  return out.sort((a, b) => Number(b.ours ?? false) - Number(a.ours ?? false) || a.name.localeCompare(b.name));
}
