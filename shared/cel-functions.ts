/**
 * The CEL extension libraries every CEL setting can call (cel-go's strings, math, encoders,
 * optionals, two-variable comprehensions, bindings and time functions), declared once: the
 * runtime binds an implementation to each overload (src-main/runtime/core/cel-library/), the
 * editor completes and documents them, and `npm run gen` writes the reference in docs/flows.md.
 *
 * Plain data, no imports: the renderer reads it too.
 */

export type CelLibrary = 'strings' | 'math' | 'encoders' | 'optionals' | 'comprehensions' | 'bindings' | 'time';

export interface CelFunctionDeclaration {
  /** As written in an expression: `charAt` (a method), `math.greatest`, `base64.encode`. */
  readonly name: string;
  readonly library: CelLibrary;
  /**
   * Overloads in cel-js signature syntax. A method names its receiver type
   * (`string.charAt(int): string`), a namespaced function its namespace (`math.abs(int): int`);
   * `...` repeats the argument before it (variadic), `ast` is an unevaluated argument (a macro).
   */
  readonly overloads: readonly string[];
  readonly description: string;
  /** An expression and the CEL literal it evaluates to (a test evaluates every one). */
  readonly example: { readonly expression: string; readonly result: string };
  /** Syntax or a macro of the CEL library itself: documented here, no host implementation. */
  readonly builtin?: true;
}

/** Namespaces (`math.…`) the runtime declares as constants so their functions resolve. */
export const CEL_NAMESPACES = ['math', 'strings', 'base64'] as const;

export const CEL_LIBRARY_TITLES: Record<CelLibrary, string> = {
  strings: 'Strings',
  math: 'Math',
  encoders: 'Encoders',
  optionals: 'Optionals',
  comprehensions: 'Two-variable comprehensions',
  bindings: 'Bindings',
  time: 'Timestamps and durations',
};

const ex = (expression: string, result: string): CelFunctionDeclaration['example'] => ({ expression, result });

export const CEL_FUNCTIONS: readonly CelFunctionDeclaration[] = [
  // strings
  { name: 'charAt', library: 'strings', overloads: ['string.charAt(int): string'], description: 'The character (code point) at an index; the length gives "".', example: ex("'hello'.charAt(1)", "'e'") },
  { name: 'indexOf', library: 'strings', overloads: ['string.indexOf(string): int', 'string.indexOf(string, int): int'], description: 'Code-point index of the first occurrence of the argument (from an optional start), or -1.', example: ex("'hello mellow'.indexOf('ello', 2)", '7') },
  { name: 'lastIndexOf', library: 'strings', overloads: ['string.lastIndexOf(string): int', 'string.lastIndexOf(string, int): int'], description: 'Code-point index of the last occurrence of the argument (searching back from an optional index), or -1.', example: ex("'hello mellow'.lastIndexOf('ello')", '7') },
  { name: 'lowerAscii', library: 'strings', overloads: ['string.lowerAscii(): string'], description: 'The string with ASCII letters in lower case; other characters unchanged.', example: ex("'TacoCat'.lowerAscii()", "'tacocat'") },
  { name: 'upperAscii', library: 'strings', overloads: ['string.upperAscii(): string'], description: 'The string with ASCII letters in upper case; other characters unchanged.', example: ex("'TacoCat'.upperAscii()", "'TACOCAT'") },
  { name: 'replace', library: 'strings', overloads: ['string.replace(string, string): string', 'string.replace(string, string, int): string'], description: 'Replaces occurrences of the first argument by the second: all, or at most n (n < 0: all).', example: ex("'a-b-c'.replace('-', '+', 1)", "'a+b-c'") },
  { name: 'split', library: 'strings', overloads: ['string.split(string): list<string>', 'string.split(string, int): list<string>'], description: 'Splits at each separator, into at most n parts when n is given (n < 0: no limit, 0: empty list).', example: ex("'a,b,c'.split(',', 2)", "['a', 'b,c']") },
  { name: 'substring', library: 'strings', overloads: ['string.substring(int): string', 'string.substring(int, int): string'], description: 'The code points from start (inclusive) to end (exclusive, default: the end).', example: ex("'tacocat'.substring(4)", "'cat'") },
  { name: 'trim', library: 'strings', overloads: ['string.trim(): string'], description: 'The string without leading and trailing Unicode white space.', example: ex("'  hi \\n'.trim()", "'hi'") },
  { name: 'join', library: 'strings', overloads: ['list<string>.join(): string', 'list<string>.join(string): string'], description: 'Concatenates a list of strings, with an optional separator.', example: ex("['a', 'b'].join(', ')", "'a, b'") },
  { name: 'reverse', library: 'strings', overloads: ['string.reverse(): string'], description: 'The code points in reverse order.', example: ex("'abc'.reverse()", "'cba'") },
  { name: 'format', library: 'strings', overloads: ['string.format(list<dyn>): string'], description: 'printf-style formatting: %s, %d, %f (%.Nf), %e, %x, %X, %o, %b and %% over a list of arguments.', example: ex("'%s has %d items, %.2f total'.format(['cart', 3, 9.5])", "'cart has 3 items, 9.50 total'") },
  { name: 'strings.quote', library: 'strings', overloads: ['strings.quote(string): string'], description: 'The string as a double-quoted CEL literal, with escapes.', example: ex('strings.quote(\'say "hi"\')', "'\"say \\\\\"hi\\\\\"\"'") },

  // math
  { name: 'math.greatest', library: 'math', overloads: ['math.greatest(dyn, ...): dyn'], description: 'The greatest of its numeric arguments, or of the numbers in a list argument, keeping its type.', example: ex('math.greatest(1, 2.5, 3u)', '3u') },
  { name: 'math.least', library: 'math', overloads: ['math.least(dyn, ...): dyn'], description: 'The least of its numeric arguments, or of the numbers in a list argument, keeping its type.', example: ex('math.least([4, -2.5, 7])', '-2.5') },
  { name: 'math.ceil', library: 'math', overloads: ['math.ceil(double): double'], description: 'Rounds up to an integral double.', example: ex('math.ceil(1.2)', '2.0') },
  { name: 'math.floor', library: 'math', overloads: ['math.floor(double): double'], description: 'Rounds down to an integral double.', example: ex('math.floor(1.8)', '1.0') },
  { name: 'math.round', library: 'math', overloads: ['math.round(double): double'], description: 'Rounds to the nearest integral double, halves away from zero.', example: ex('math.round(-1.5)', '-2.0') },
  { name: 'math.trunc', library: 'math', overloads: ['math.trunc(double): double'], description: 'Drops the fractional part.', example: ex('math.trunc(-1.8)', '-1.0') },
  { name: 'math.abs', library: 'math', overloads: ['math.abs(int): int', 'math.abs(uint): uint', 'math.abs(double): double'], description: 'The absolute value (an error for the smallest int).', example: ex('math.abs(-5)', '5') },
  { name: 'math.sign', library: 'math', overloads: ['math.sign(int): int', 'math.sign(uint): uint', 'math.sign(double): double'], description: '-1, 0 or 1 in the type of the argument.', example: ex('math.sign(-2.5)', '-1.0') },
  { name: 'math.isNaN', library: 'math', overloads: ['math.isNaN(double): bool'], description: 'True for NaN.', example: ex('math.isNaN(0.0 / 0.0)', 'true') },
  { name: 'math.isInf', library: 'math', overloads: ['math.isInf(double): bool'], description: 'True for positive or negative infinity.', example: ex('math.isInf(1.0 / 0.0)', 'true') },
  { name: 'math.isFinite', library: 'math', overloads: ['math.isFinite(double): bool'], description: 'True when neither NaN nor infinite.', example: ex('math.isFinite(1.5)', 'true') },
  { name: 'math.sqrt', library: 'math', overloads: ['math.sqrt(int): double', 'math.sqrt(uint): double', 'math.sqrt(double): double'], description: 'The square root, as a double (NaN for negatives).', example: ex('math.sqrt(16)', '4.0') },
  { name: 'math.bitAnd', library: 'math', overloads: ['math.bitAnd(int, int): int', 'math.bitAnd(uint, uint): uint'], description: 'Bitwise AND.', example: ex('math.bitAnd(6, 3)', '2') },
  { name: 'math.bitOr', library: 'math', overloads: ['math.bitOr(int, int): int', 'math.bitOr(uint, uint): uint'], description: 'Bitwise OR.', example: ex('math.bitOr(4, 1)', '5') },
  { name: 'math.bitXor', library: 'math', overloads: ['math.bitXor(int, int): int', 'math.bitXor(uint, uint): uint'], description: 'Bitwise exclusive OR.', example: ex('math.bitXor(6, 3)', '5') },
  { name: 'math.bitNot', library: 'math', overloads: ['math.bitNot(int): int', 'math.bitNot(uint): uint'], description: 'Bitwise complement (64-bit).', example: ex('math.bitNot(0)', '-1') },
  { name: 'math.bitShiftLeft', library: 'math', overloads: ['math.bitShiftLeft(int, int): int', 'math.bitShiftLeft(uint, int): uint'], description: 'Shifts left by n bits (64-bit; 64 or more gives 0; negative n is an error).', example: ex('math.bitShiftLeft(1, 4)', '16') },
  { name: 'math.bitShiftRight', library: 'math', overloads: ['math.bitShiftRight(int, int): int', 'math.bitShiftRight(uint, int): uint'], description: 'Logical shift right by n bits (zero-filling, 64-bit).', example: ex('math.bitShiftRight(1024, 2)', '256') },

  // encoders
  { name: 'base64.encode', library: 'encoders', overloads: ['base64.encode(bytes): string'], description: 'Standard base64 text of bytes.', example: ex("base64.encode(b'hello')", "'aGVsbG8='") },
  { name: 'base64.decode', library: 'encoders', overloads: ['base64.decode(string): bytes'], description: 'Bytes from standard base64 text (padding optional).', example: ex("base64.decode('aGVsbG8')", "b'hello'") },

  // optionals
  { name: 'optional.of', library: 'optionals', overloads: ['optional.of(dyn): optional<dyn>'], description: 'An optional holding the value.', example: ex('optional.of(1).value()', '1'), builtin: true },
  { name: 'optional.none', library: 'optionals', overloads: ['optional.none(): optional<dyn>'], description: 'An empty optional.', example: ex('optional.none().hasValue()', 'false'), builtin: true },
  { name: 'optional.ofNonZeroValue', library: 'optionals', overloads: ['optional.ofNonZeroValue(dyn): optional<dyn>'], description: 'An optional holding the value, empty for a zero value (0, "", [], {}, false, null).', example: ex("optional.ofNonZeroValue('').hasValue()", 'false') },
  { name: '.?field', library: 'optionals', overloads: ['dyn.?field: optional<dyn>'], description: 'Optional field selection: an optional of the field, empty when it is absent.', example: ex("{'a': 1}.?b.orValue(0)", '0'), builtin: true },
  { name: '[?index]', library: 'optionals', overloads: ['dyn[?dyn]: optional<dyn>'], description: 'Optional index: an optional of the element or map entry, empty when it is absent. In literals, `[?x]` and `{?k: x}` include an entry only when the optional has a value.', example: ex("[?optional.none(), ?optional.of(2)]", '[2]'), builtin: true },
  { name: 'hasValue', library: 'optionals', overloads: ['optional.hasValue(): bool'], description: 'True when the optional holds a value.', example: ex("{'a': 1}.?a.hasValue()", 'true'), builtin: true },
  { name: 'value', library: 'optionals', overloads: ['optional<A>.value(): A'], description: 'The value of the optional (an error when empty).', example: ex("{'a': 1}.?a.value()", '1'), builtin: true },
  { name: 'orValue', library: 'optionals', overloads: ['optional<A>.orValue(A): A'], description: 'The optional’s value, else the default.', example: ex("vars.?page.orValue('1')", "'1'"), builtin: true },
  { name: 'or', library: 'optionals', overloads: ['optional<A>.or(optional<A>): optional<A>'], description: 'This optional when it holds a value, else the other.', example: ex('optional.none().or(optional.of(3)).value()', '3'), builtin: true },
  { name: 'optMap', library: 'optionals', overloads: ['optional.optMap(ast, ast): optional<dyn>'], description: 'Transforms the value of a non-empty optional: `opt.optMap(v, v + 1)`.', example: ex('optional.of(41).optMap(v, v + 1).value()', '42'), builtin: true },
  { name: 'optFlatMap', library: 'optionals', overloads: ['optional.optFlatMap(ast, ast): optional<dyn>'], description: 'Like optMap, for a transform that returns an optional.', example: ex("optional.of({'a': 1}).optFlatMap(m, m.?a).value()", '1'), builtin: true },

  // two-variable comprehensions
  { name: 'all', library: 'comprehensions', overloads: ['list.all(ast, ast, ast): bool', 'map.all(ast, ast, ast): bool'], description: 'True when the predicate holds for every index and value of a list (key and value of a map).', example: ex('[1, 2].all(i, v, v > i)', 'true'), builtin: true },
  { name: 'exists', library: 'comprehensions', overloads: ['list.exists(ast, ast, ast): bool', 'map.exists(ast, ast, ast): bool'], description: 'True when the predicate holds for some index and value (key and value).', example: ex("{'a': 1}.exists(k, v, k == 'a' && v == 1)", 'true'), builtin: true },
  { name: 'existsOne', library: 'comprehensions', overloads: ['list.existsOne(ast, ast, ast): bool', 'map.existsOne(ast, ast, ast): bool'], description: 'True when the predicate holds for exactly one index and value (key and value).', example: ex('[5, 7].existsOne(i, v, v == 7)', 'true'), builtin: true },
  { name: 'transformList', library: 'comprehensions', overloads: ['list.transformList(ast, ast, ast): list<dyn>', 'list.transformList(ast, ast, ast, ast): list<dyn>', 'map.transformList(ast, ast, ast): list<dyn>', 'map.transformList(ast, ast, ast, ast): list<dyn>'], description: 'A list of the transform of each index and value (key and value), with an optional filter before the transform.', example: ex("['a', 'b'].transformList(i, v, v + string(i))", "['a0', 'b1']"), builtin: true },
  { name: 'transformMap', library: 'comprehensions', overloads: ['list.transformMap(ast, ast, ast): map<dyn, dyn>', 'list.transformMap(ast, ast, ast, ast): map<dyn, dyn>', 'map.transformMap(ast, ast, ast): map<dyn, dyn>', 'map.transformMap(ast, ast, ast, ast): map<dyn, dyn>'], description: 'A map with the same keys (indexes), each value transformed, with an optional filter.', example: ex("{'a': 1}.transformMap(k, v, v * 10)", "{'a': 10}"), builtin: true },
  { name: 'transformMapEntry', library: 'comprehensions', overloads: ['list.transformMapEntry(ast, ast, ast): map<dyn, dyn>', 'list.transformMapEntry(ast, ast, ast, ast): map<dyn, dyn>', 'map.transformMapEntry(ast, ast, ast): map<dyn, dyn>', 'map.transformMapEntry(ast, ast, ast, ast): map<dyn, dyn>'], description: 'A map built from the single-entry maps the transform returns (a duplicate key is an error), with an optional filter.', example: ex("{'a': 'x'}.transformMapEntry(k, v, {v: k})", "{'x': 'a'}"), builtin: true },

  // bindings
  { name: 'cel.bind', library: 'bindings', overloads: ['cel.bind(ast, dyn, ast): dyn'], description: 'Binds a name to a value inside an expression, evaluated once.', example: ex('cel.bind(t, 2 + 3, t * t)', '25'), builtin: true },
  { name: 'cel.index', library: 'bindings', overloads: ['cel.index(ast): dyn'], description: 'Inside cel.block: the value of the subexpression at that position of the list.', example: ex('cel.block([5], cel.index(0) + 1)', '6'), builtin: true },
  { name: 'cel.block', library: 'bindings', overloads: ['cel.block(list<dyn>, ast): dyn'], description: 'Evaluates a list of subexpressions once, each readable as `cel.index(i)` in later ones and in the result.', example: ex('cel.block([2, cel.index(0) * 3], cel.index(1) + 1)', '7'), builtin: true },

  // time
  { name: 'timestamp getters with time zones', library: 'time', overloads: ['google.protobuf.Timestamp.getFullYear(string): int', 'google.protobuf.Timestamp.getMonth(string): int', 'google.protobuf.Timestamp.getDate(string): int', 'google.protobuf.Timestamp.getDayOfMonth(string): int', 'google.protobuf.Timestamp.getDayOfWeek(string): int', 'google.protobuf.Timestamp.getDayOfYear(string): int', 'google.protobuf.Timestamp.getHours(string): int', 'google.protobuf.Timestamp.getMinutes(string): int', 'google.protobuf.Timestamp.getSeconds(string): int', 'google.protobuf.Timestamp.getMilliseconds(string): int'], description: 'Calendar fields of a timestamp in a time zone: an IANA name (`Europe/Paris`) or a fixed offset (`+05:30`, `-08:00`); without an argument, in UTC. Months and days of month and year count from 0, getDate from 1.', example: ex("timestamp('2025-01-01T02:00:00Z').getHours('America/New_York')", '21'), builtin: true },
  { name: 'duration getters', library: 'time', overloads: ['google.protobuf.Duration.getHours(): int', 'google.protobuf.Duration.getMinutes(): int', 'google.protobuf.Duration.getSeconds(): int', 'google.protobuf.Duration.getMilliseconds(): int'], description: 'A duration in whole hours, minutes or seconds; getMilliseconds is the millisecond part of the last second.', example: ex("duration('1h30m').getMinutes()", '90'), builtin: true },
  { name: 'int', library: 'time', overloads: ['int(google.protobuf.Timestamp): int'], description: 'int(timestamp): seconds since the Unix epoch.', example: ex("int(timestamp('1970-01-01T00:01:00Z'))", '60') },
  { name: 'string', library: 'time', overloads: ['string(google.protobuf.Timestamp): string', 'string(google.protobuf.Duration): string'], description: 'string(timestamp) is RFC 3339 text in UTC, string(duration) is seconds (`90s`).', example: ex("string(duration('1m30s'))", "'90s'") },
  { name: 'timestamp', library: 'time', overloads: ['timestamp(google.protobuf.Timestamp): google.protobuf.Timestamp'], description: 'timestamp(timestamp) is the timestamp unchanged; timestamp(string) parses RFC 3339 text, timestamp(int) Unix seconds.', example: ex('timestamp(timestamp(0)) == timestamp(0)', 'true') },
  { name: 'duration', library: 'time', overloads: ['duration(google.protobuf.Duration): google.protobuf.Duration'], description: 'duration(duration) is the duration unchanged; duration(string) parses `1h30m`, `1.5s`, `250ms`.', example: ex("duration(duration('90s')) == duration('1m30s')", 'true') },
];
