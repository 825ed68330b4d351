import { celError, entriesOf, isMap, isUint, type CelHandler, Duration } from './cel-values.ts';
import { timestampText } from './time.ts';

/**
 * The cel-go strings extension (ext.Strings, version 4). Indexes count code points, not UTF-16
 * units, so `'©αT'.charAt(1)` is `'α'` as in every other CEL.
 */

const codePoints = (s: string): string[] => Array.from(s);

function indexIn(points: string[], search: string, from: number): number {
  const needle = codePoints(search);
  outer: for (let i = from; i + needle.length <= points.length; i++) {
    for (let j = 0; j < needle.length; j++) if (points[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function lastIndexIn(points: string[], search: string, from: number): number {
  const needle = codePoints(search);
  outer: for (let i = Math.min(from, points.length - needle.length); i >= 0; i--) {
    for (let j = 0; j < needle.length; j++) if (points[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function checkIndex(i: bigint, length: number, fn: string): number {
  if (i < 0n || i > BigInt(length)) throw celError(`${fn}: index out of range: ${i}`);
  return Number(i);
}

/** Go's unicode.IsSpace: what TrimSpace removes (not U+180E, U+200B or U+FEFF, unlike JS trim). */
const SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

function split(s: string, sep: string, limit: bigint): string[] {
  if (limit === 0n) return [];
  const parts = sep === '' ? codePoints(s) : s.split(sep);
  if (limit < 0n || parts.length <= limit) return parts;
  const n = Number(limit);
  return [...parts.slice(0, n - 1), sep === '' ? parts.slice(n - 1).join('') : parts.slice(n - 1).join(sep)];
}

function replace(s: string, from: string, to: string, limit: bigint): string {
  if (limit < 0n) return s.split(from).join(to);
  let out = '';
  let rest = s;
  for (let n = 0n; n < limit; n++) {
    const at = from === '' ? (n === 0n || rest.length ? 0 : -1) : rest.indexOf(from);
    if (at < 0) break;
    if (from === '') {
      const [first = ''] = codePoints(rest);
      out += to + first;
      rest = rest.slice(first.length);
      if (!first) break;
      continue;
    }
    out += rest.slice(0, at) + to;
    rest = rest.slice(at + from.length);
  }
  return out + rest;
}

const QUOTE_ESCAPES: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', '"': '\\"' };

function quote(s: string): string {
  let out = '"';
  for (const c of s) {
    const escaped = QUOTE_ESCAPES[c];
    if (escaped) out += escaped;
    else if (c === '\ufffd' || /[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/u.test(c)) out += `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

function joinStrings(list: unknown[], sep: string): string {
  for (const v of list) if (typeof v !== 'string') throw celError('join: the list must hold only strings');
  return list.join(sep);
}

// --- format -------------------------------------------------------------------------------

function formatDouble(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return 'Infinity';
  if (d === -Infinity) return '-Infinity';
  return String(d);
}

/** `%s` of any value, as cel-go writes it: lists `[a, b]`, maps `{k: v}` sorted by key text. */
function asString(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return formatDouble(v);
  if (isUint(v)) return String(v.value);
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  if (v instanceof Date) return timestampText(v);
  if (v instanceof Duration) return v.toString();
  if (Array.isArray(v)) return `[${v.map(asString).join(', ')}]`;
  if (isMap(v)) {
    const entries = entriesOf(v).map(([k, val]) => [asString(k), asString(val)] as const);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, val]) => `${k}: ${val}`).join(', ')}}`;
  }
  const typeName = (v as { name?: unknown }).name;
  if (typeof typeName === 'string' && v?.constructor?.name === 'Type') return typeName;
  throw celError(`format: %s cannot format a value of this type`);
}

function integral(v: unknown, clause: string): bigint {
  if (typeof v === 'bigint') return v;
  if (isUint(v)) return v.value;
  if (typeof v === 'boolean' && clause === 'b') return v ? 1n : 0n;
  throw celError(`format: %${clause} needs an integer, got ${describe(v)}`);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'bigint') return 'int';
  if (v instanceof Duration) return 'duration';
  if (v instanceof Date) return 'timestamp';
  return typeof v;
}

/** Fixed point with Go's rounding: an exact half rounds to even (`%.0f` of 2.5 is `2`). */
function fixed(d: number, precision: number): string {
  const text = d.toFixed(precision);
  const scaled = d * 10 ** precision;
  if (Number.isFinite(scaled) && Math.abs(scaled) < 2 ** 52 && scaled * 2 === Math.round(scaled * 2) && !Number.isInteger(scaled)) {
    const down = Math.trunc(scaled);
    const even = down % 2 === 0 ? down : down + Math.sign(scaled);
    return (even / 10 ** precision).toFixed(precision);
  }
  return text;
}

function hex(v: unknown, upper: boolean): string {
  let out: string;
  if (typeof v === 'string') out = Buffer.from(v, 'utf8').toString('hex');
  else if (v instanceof Uint8Array) out = Buffer.from(v).toString('hex');
  else {
    const n = integral(v, upper ? 'X' : 'x');
    out = n < 0n ? `-${(-n).toString(16)}` : n.toString(16);
  }
  return upper ? out.toUpperCase() : out;
}

function floating(v: unknown, clause: string): number | string {
  if (typeof v === 'number') return Number.isFinite(v) ? v : formatDouble(v);
  if (typeof v === 'bigint') return Number(v);
  if (isUint(v)) return Number(v.value);
  throw celError(`format: %${clause} needs a number, got ${describe(v)}`);
}

function format(template: string, args: unknown[]): string {
  let out = '';
  let next = 0;
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c !== '%') {
      out += c;
      continue;
    }
    if (template[i + 1] === '%') {
      out += '%';
      i++;
      continue;
    }
    let precision: number | undefined;
    let j = i + 1;
    if (template[j] === '.') {
      const digits = /^\d+/.exec(template.slice(j + 1))?.[0] ?? '';
      precision = Number(digits || '0');
      j += 1 + digits.length;
    }
    const clause = template[j];
    if (next >= args.length) throw celError(`format: index ${next} out of range: only ${args.length} arguments for "${template}"`);
    const arg = args[next++];
    i = j;
    switch (clause) {
      case 's':
        out += asString(arg);
        break;
      case 'd': {
        if (typeof arg === 'number' && !Number.isFinite(arg)) out += formatDouble(arg);
        else out += String(integral(arg, 'd'));
        break;
      }
      case 'f': {
        const d = floating(arg, 'f');
        out += typeof d === 'string' ? d : fixed(d, precision ?? 6);
        break;
      }
      case 'e': {
        const d = floating(arg, 'e');
        out += typeof d === 'string' ? d : d.toExponential(precision ?? 6).replace(/e([+-])(\d)$/, 'e$10$2');
        break;
      }
      case 'b':
        out += integral(arg, 'b').toString(2);
        break;
      case 'o':
        out += integral(arg, 'o').toString(8);
        break;
      case 'x':
      case 'X':
        out += hex(arg, clause === 'X');
        break;
      default:
        throw celError(`format: unrecognized formatting clause "%${clause ?? ''}" in "${template}"`);
    }
  }
  return out;
}

export const STRINGS: Record<string, CelHandler> = {
  'string.charAt(int): string': (s: string, i: bigint) => {
    const points = codePoints(s);
    return points[checkIndex(i, points.length, 'charAt')] ?? '';
  },
  'string.indexOf(string): int': (s: string, search: string) => BigInt(indexIn(codePoints(s), search, 0)),
  'string.indexOf(string, int): int': (s: string, search: string, from: bigint) => {
    const points = codePoints(s);
    return BigInt(indexIn(points, search, checkIndex(from, points.length, 'indexOf')));
  },
  'string.lastIndexOf(string): int': (s: string, search: string) => {
    const points = codePoints(s);
    return BigInt(lastIndexIn(points, search, points.length));
  },
  'string.lastIndexOf(string, int): int': (s: string, search: string, from: bigint) => {
    const points = codePoints(s);
    return BigInt(lastIndexIn(points, search, checkIndex(from, points.length, 'lastIndexOf')));
  },
  'string.lowerAscii(): string': (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase()),
  'string.upperAscii(): string': (s: string) => s.replace(/[a-z]+/g, (m) => m.toUpperCase()),
  'string.replace(string, string): string': (s: string, from: string, to: string) => replace(s, from, to, -1n),
  'string.replace(string, string, int): string': replace,
  'string.split(string): list<string>': (s: string, sep: string) => split(s, sep, -1n),
  'string.split(string, int): list<string>': split,
  'string.substring(int): string': (s: string, start: bigint) => {
    const points = codePoints(s);
    return points.slice(checkIndex(start, points.length, 'substring')).join('');
  },
  'string.substring(int, int): string': (s: string, start: bigint, end: bigint) => {
    const points = codePoints(s);
    const from = checkIndex(start, points.length, 'substring');
    const to = checkIndex(end, points.length, 'substring');
    if (to < from) throw celError(`substring: end ${end} is before start ${start}`);
    return points.slice(from, to).join('');
  },
  'string.trim(): string': (s: string) => s.replace(SPACE, ''),
  'list<string>.join(): string': (list: unknown[]) => joinStrings(list, ''),
  'list<string>.join(string): string': (list: unknown[], sep: string) => joinStrings(list, sep),
  'string.reverse(): string': (s: string) => codePoints(s).reverse().join(''),
  'string.format(list<dyn>): string': format,
  'strings.quote(string): string': quote,
};
