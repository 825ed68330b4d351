import {evaluationError} from './errors.js'
import {TYPES, Type} from './registry.js'
import {register as registerOptional} from './optional.js'
import {objKeys, arrayFrom, MIN_UINT, MAX_UINT, MIN_INT, MAX_INT} from './globals.js'

export class UnsignedInt {
  #value
  constructor(value) {
    this.verify(typeof value === 'bigint' ? value : BigInt(value))
  }

  get value() {
    return this.#value
  }

  valueOf() {
    return this.#value
  }

  toString() {
    return `${this.#value}`
  }

  verify(v) {
    if (v < MIN_UINT || v > MAX_UINT) {
      throw evaluationError('numeric_overflow', 'Unsigned integer overflow')
    }
    this.#value = v
  }

  get [Symbol.toStringTag]() {
    return `value = ${this.#value}`
  }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    return `UnsignedInteger { value: ${this.#value} }`
  }
}

const billion = 1_000_000_000
const billionBigInt = 1_000_000_000n

const UNIT_NANOSECONDS = {
  h: 3_600_000_000_000n,
  m: 60_000_000_000n,
  s: billionBigInt,
  ms: 1_000_000n,
  us: 1_000n,
  µs: 1_000n,
  ns: 1n
}

export class Duration {
  #seconds
  #nanos

  constructor(seconds, nanos = 0) {
    this.#seconds = BigInt(seconds)
    this.#nanos = nanos
  }

  get seconds() {
    return this.#seconds
  }

  get nanos() {
    return this.#nanos
  }

  valueOf() {
    return Number(this.#seconds) * 1000 + this.#nanos / 1_000_000
  }

  static fromMilliseconds(ms) {
    const totalNanos = BigInt(Math.trunc(ms * 1_000_000))
    const seconds = totalNanos / billionBigInt
    const nanos = Number(totalNanos % billionBigInt)
    return new Duration(seconds, nanos)
  }

  addDuration(other) {
    const nanos = this.#nanos + other.nanos
    return new Duration(
      this.#seconds + other.seconds + BigInt(Math.floor(nanos / billion)),
      nanos % billion
    )
  }

  subtractDuration(other) {
    const nanos = this.#nanos - other.nanos
    return new Duration(
      this.#seconds - other.seconds + BigInt(Math.floor(nanos / billion)),
      (nanos + billion) % billion
    )
  }

  extendTimestamp(ts) {
    return new Date(
      ts.getTime() + Number(this.#seconds) * 1000 + Math.floor(this.#nanos / 1_000_000)
    )
  }

  subtractTimestamp(ts) {
    return new Date(
      ts.getTime() - Number(this.#seconds) * 1000 - Math.floor(this.#nanos / 1_000_000)
    )
  }

  toString() {
    const nanos = this.#nanos
      ? (this.#nanos / billion)
          .toLocaleString('en-US', {useGrouping: false, maximumFractionDigits: 9})
          .slice(1)
      : ''
    return `${this.#seconds}${nanos}s`
  }

  getHours() {
    return this.#seconds / 3600n
  }

  getMinutes() {
    return this.#seconds / 60n
  }

  getSeconds() {
    return this.#seconds
  }

  getMilliseconds() {
    // flow-studio: the millisecond part of the last second, as cel-spec's conformance suite says
    return BigInt(Math.trunc(this.#nanos / 1000000))
  }

  get [Symbol.toStringTag]() {
    return 'google.protobuf.Duration'
  }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    return `google.protobuf.Duration { seconds: ${this.#seconds}, nanos: ${this.#nanos} }`
  }
}

export function registerFunctions(registry) {
  const sync = {async: false}
  const functionOverload = (sig, handler) => registry.registerFunctionOverload(sig, handler, sync)
  const identity = (v) => v

  functionOverload('dyn(dyn): dyn', identity)

  for (const _t in TYPES) {
    const type = TYPES[_t]
    if (!(type instanceof Type)) continue
    functionOverload(`type(${type.name}): type`, () => type)
  }

  functionOverload('bool(bool): bool', identity)
  functionOverload('bool(string): bool', (v) => {
    switch (v) {
      case '1':
      case 't':
      case 'true':
      case 'TRUE':
      case 'True':
        return true
      case '0':
      case 'f':
      case 'false':
      case 'FALSE':
      case 'False':
        return false
      default:
        throw evaluationError(
          'bool_conversion_error',
          `bool() conversion error: invalid string value "${v}"`
        )
    }
  })

  functionOverload('size(string): int', (v) => BigInt(stringSize(v)))
  functionOverload('size(bytes): int', (v) => BigInt(v.length))
  functionOverload('size(list): int', (v) => BigInt(v.length ?? v.size))
  functionOverload('size(map): int', (v) => BigInt(v instanceof Map ? v.size : objKeys(v).length))
  functionOverload('string.size(): int', (v) => BigInt(stringSize(v)))
  functionOverload('bytes.size(): int', (v) => BigInt(v.length))
  functionOverload('list.size(): int', (v) => BigInt(v.length ?? v.size))
  functionOverload('map.size(): int', (v) => BigInt(v instanceof Map ? v.size : objKeys(v).length))

  functionOverload('bytes(string): bytes', (v) => ByteOpts.fromString(v))
  functionOverload('bytes(bytes): bytes', identity)

  functionOverload('double(double): double', identity)
  functionOverload('double(int): double', (v) => Number(v))
  functionOverload('double(uint): double', (v) => Number(v))
  functionOverload('double(string): double', (v) => {
    if (!v || v !== v.trim())
      throw evaluationError(
        'double_conversion_error',
        'double() type error: cannot convert to double'
      )

    const s = v.toLowerCase()
    switch (s) {
      case 'inf':
      case '+inf':
      case 'infinity':
      case '+infinity':
        return Number.POSITIVE_INFINITY
      case '-inf':
      case '-infinity':
        return Number.NEGATIVE_INFINITY
      case 'nan':
        return Number.NaN
      default: {
        const parsed = Number(v)
        if (!Number.isNaN(parsed)) return parsed
        throw evaluationError(
          'double_conversion_error',
          'double() type error: cannot convert to double'
        )
      }
    }
  })

  functionOverload('int(int): int', identity)
  functionOverload('int(double): int', (v) => {
    // flow-studio: doubles at or beyond ±2^63 do not fit an int
    if (Number.isFinite(v) && v < 9223372036854775807 && v > -9223372036854775808) {
      return BigInt(Math.trunc(v))
    }
    throw evaluationError('numeric_overflow', 'int() type error: integer overflow')
  })
  functionOverload('int(uint): int', (v) => {
    // flow-studio: the standard int(uint) conversion
    if (v.valueOf() <= MAX_INT) return v.valueOf()
    throw evaluationError('numeric_overflow', 'int() type error: integer overflow')
  })

  functionOverload('int(string): int', (v) => {
    if (v !== v.trim() || v.length > 20 || v.includes('0x')) {
      throw evaluationError('int_conversion_error', 'int() type error: cannot convert to int')
    }

    try {
      const num = BigInt(v)
      if (num <= MAX_INT && num >= MIN_INT) return num
    } catch (_e) {}

    throw evaluationError('int_conversion_error', 'int() type error: cannot convert to int')
  })

  functionOverload('uint(uint): uint', identity)
  functionOverload('uint(int): uint', (v) => {
    try {
      return new UnsignedInt(v)
    } catch (e) {
      throw evaluationError('uint_conversion_error', 'uint() type error: cannot convert to uint')
    }
  })
  functionOverload('uint(double): uint', (v) => {
    try {
      return new UnsignedInt(Math.trunc(v))
    } catch (e) {
      throw evaluationError('numeric_overflow', 'uint() type error: unsigned integer overflow')
    }
  })

  functionOverload('uint(string): uint', (v) => {
    if (v !== v.trim() || v.length > 20 || v.includes('0x')) {
      throw evaluationError('uint_conversion_error', 'uint() type error: cannot convert to uint')
    }

    try {
      return new UnsignedInt(v)
    } catch (e) {
      throw evaluationError('uint_conversion_error', 'uint() type error: cannot convert to uint')
    }
  })

  functionOverload('string(string): string', identity)
  functionOverload('string(bool): string', (v) => `${v}`)
  functionOverload('string(int): string', (v) => `${v}`)
  functionOverload('string(uint): string', (v) => `${v}`)
  // flow-studio: bytes that are not valid UTF-8 are an error, not replacement characters
  const strictUtf8 = new TextDecoder('utf8', {fatal: true})
  functionOverload('string(bytes): string', (v) => {
    try {
      return strictUtf8.decode(v)
    } catch (_e) {
      throw evaluationError('invalid_utf8', 'string() type error: bytes are not valid UTF-8')
    }
  })
  functionOverload('string(double): string', (v) => {
    if (v === Infinity) return '+Inf'
    if (v === -Infinity) return '-Inf'
    return `${v}`
  })

  functionOverload('string.startsWith(string): bool', (a, b) => a.startsWith(b))
  functionOverload('string.endsWith(string): bool', (a, b) => a.endsWith(b))
  functionOverload('string.contains(string): bool', (a, b) => a.includes(b))
  // flow-studio: the cel-go strings extension (lowerAscii, trim, indexOf, substring, …) is bound by
  // the host with cel-go's semantics (code points, ASCII-only casing, Unicode white space).

  functionOverload('string.matches(string): bool', (a, b) => {
    try {
      return new RegExp(b).test(a)
    } catch (_err) {
      throw evaluationError('invalid_regular_expression', `Invalid regular expression: ${b}`)
    }
  })

  const textEncoder = new TextEncoder('utf8')
  const textDecoder = new TextDecoder('utf8')
  const ByteOpts =
    typeof Buffer !== 'undefined'
      ? {
          byteLength: (v) => Buffer.byteLength(v),
          fromString: (str) => Buffer.from(str, 'utf8'),
          toHex: (b) => Buffer.prototype.hexSlice.call(b, 0, b.length),
          toBase64: (b) => Buffer.prototype.base64Slice.call(b, 0, b.length),
          toUtf8: (b) => Buffer.prototype.utf8Slice.call(b, 0, b.length),
          jsonParse: (b) => JSON.parse(b)
        }
      : {
          textEncoder: new TextEncoder('utf8'),
          byteLength: (v) => textEncoder.encode(v).length,
          fromString: (str) => textEncoder.encode(str),
          toHex: Uint8Array.prototype.toHex
            ? (b) => b.toHex()
            : (b) => arrayFrom(b, (i) => i.toString(16).padStart(2, '0')).join(''),
          toBase64: Uint8Array.prototype.toBase64
            ? (b) => b.toBase64()
            : (b) => btoa(arrayFrom(b, (i) => String.fromCodePoint(i)).join('')),
          toUtf8: (b) => textDecoder.decode(b),
          jsonParse: (b) => JSON.parse(textEncoder.decode(b))
        }

  functionOverload('bytes.json(): map', ByteOpts.jsonParse)
  functionOverload('bytes.hex(): string', ByteOpts.toHex)
  functionOverload('bytes.string(): string', ByteOpts.toUtf8)
  functionOverload('bytes.base64(): string', ByteOpts.toBase64)
  functionOverload('bytes.at(int): int', (b, index) => {
    if (index < 0 || index >= b.length) {
      throw evaluationError('index_out_of_range', 'Bytes index out of range')
    }
    return BigInt(b[index])
  })

  const TS = 'google.protobuf.Timestamp'
  const GPD = 'google.protobuf.Duration'
  const TimestampType = registry.registerType(TS, Date).typeType
  const DurationType = registry.registerType(GPD, Duration).typeType
  registry.registerConstant('google', 'map<string, map<string, type>>', {
    protobuf: {Duration: DurationType, Timestamp: TimestampType}
  })

  // flow-studio: a time zone is an IANA name or a fixed offset (`+05:30`, `-08:00`, `02:00`).
  // wallClock() is a Date whose UTC fields are the wall-clock time in that zone, so the result
  // never depends on the time zone of the machine evaluating the expression.
  const tzOffset = /^([+-]?)(\d{2}):(\d{2})$/
  const zoneFormats = new Map()
  function zoneFormat(timeZone) {
    let format = zoneFormats.get(timeZone)
    if (format) return format
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric'
      })
    } catch (_e) {
      throw evaluationError('invalid_time_zone', `Unknown time zone: '${timeZone}'`)
    }
    if (zoneFormats.size > 200) zoneFormats.clear()
    zoneFormats.set(timeZone, format)
    return format
  }

  function wallClock(d, timeZone) {
    const offset = tzOffset.exec(timeZone)
    if (offset) {
      const minutes = (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]))
      return new Date(d.getTime() + minutes * 60_000)
    }
    const p = {}
    for (const {type, value} of zoneFormat(timeZone).formatToParts(d)) p[type] = value
    const w = new Date(0)
    w.setUTCFullYear(Number(p.year), Number(p.month) - 1, Number(p.day))
    w.setUTCHours(Number(p.hour), Number(p.minute), Number(p.second), d.getUTCMilliseconds())
    return w
  }

  function getDayOfYear(d, tz) {
    const w = tz ? wallClock(d, tz) : d
    return BigInt(Math.floor((w.getTime() - Date.UTC(w.getUTCFullYear(), 0, 1)) / 86_400_000))
  }

  functionOverload(`timestamp(string): ${TS}`, (v) => {
    if (v.length < 20 || v.length > 30) {
      throw evaluationError('invalid_timestamp', 'timestamp() requires a string in ISO 8601 format')
    }

    const d = new Date(v)
    if (d <= 253402300799999 && d >= -62135596800000) return d
    throw evaluationError('invalid_timestamp', 'timestamp() requires a string in ISO 8601 format')
  })

  functionOverload(`timestamp(int): ${TS}`, (i) => {
    i = Number(i) * 1000
    if (i <= 253402300799999 && i >= -62135596800000) return new Date(i)
    throw evaluationError(
      'invalid_timestamp',
      'timestamp() requires a valid integer unix timestamp'
    )
  })

  const inZone = (getter) => (d, tz) => BigInt(getter(wallClock(d, tz)))
  functionOverload(`${TS}.getDate(): int`, (d) => BigInt(d.getUTCDate()))
  functionOverload(`${TS}.getDate(string): int`, inZone((w) => w.getUTCDate()))
  functionOverload(`${TS}.getDayOfMonth(): int`, (d) => BigInt(d.getUTCDate() - 1))
  functionOverload(`${TS}.getDayOfMonth(string): int`, inZone((w) => w.getUTCDate() - 1))
  functionOverload(`${TS}.getDayOfWeek(): int`, (d) => BigInt(d.getUTCDay()))
  functionOverload(`${TS}.getDayOfWeek(string): int`, inZone((w) => w.getUTCDay()))
  functionOverload(`${TS}.getDayOfYear(): int`, (d) => getDayOfYear(d))
  functionOverload(`${TS}.getDayOfYear(string): int`, getDayOfYear)
  functionOverload(`${TS}.getFullYear(): int`, (d) => BigInt(d.getUTCFullYear()))
  functionOverload(`${TS}.getFullYear(string): int`, inZone((w) => w.getUTCFullYear()))
  functionOverload(`${TS}.getHours(): int`, (d) => BigInt(d.getUTCHours()))
  functionOverload(`${TS}.getHours(string): int`, inZone((w) => w.getUTCHours()))
  functionOverload(`${TS}.getMilliseconds(): int`, (d) => BigInt(d.getUTCMilliseconds()))
  functionOverload(`${TS}.getMilliseconds(string): int`, (d) => BigInt(d.getUTCMilliseconds()))
  functionOverload(`${TS}.getMinutes(): int`, (d) => BigInt(d.getUTCMinutes()))
  functionOverload(`${TS}.getMinutes(string): int`, inZone((w) => w.getUTCMinutes()))
  functionOverload(`${TS}.getMonth(): int`, (d) => BigInt(d.getUTCMonth()))
  functionOverload(`${TS}.getMonth(string): int`, inZone((w) => w.getUTCMonth()))
  functionOverload(`${TS}.getSeconds(): int`, (d) => BigInt(d.getUTCSeconds()))
  functionOverload(`${TS}.getSeconds(string): int`, inZone((w) => w.getUTCSeconds()))

  const parseDurationPattern = /(\d*\.?\d*)(ns|us|µs|ms|s|m|h)/

  // parseDuration parses a golang-style duration string.
  // A duration string is a possibly signed sequence of decimal numbers,
  // each with optional fraction and a unit suffix,
  // such as "300ms", "-1.5h" or "2h45m". Valid time units are "ns", "us" (or "µs"), "ms", "s", "m", "h".
  // https://pkg.go.dev/time#ParseDuration
  function parseDuration(/** @type {string} */ string) {
    if (!string) throw evaluationError('invalid_duration', `Invalid duration string: ''`)

    const isNegative = string[0] === '-'
    if (string[0] === '-' || string[0] === '+') string = string.slice(1)

    let nanoseconds = BigInt(0)
    while (true) {
      const match = parseDurationPattern.exec(string)
      if (!match) throw evaluationError('invalid_duration', `Invalid duration string: ${string}`)

      if (match.index !== 0)
        throw evaluationError('invalid_duration', `Invalid duration string: ${string}`)
      string = string.slice(match[0].length)

      const unitNanos = UNIT_NANOSECONDS[match[2]]
      const [intPart = '0', fracPart = ''] = match[1].split('.')
      const intVal = BigInt(intPart) * unitNanos
      const fracNanos = fracPart
        ? (BigInt(fracPart.slice(0, 13).padEnd(13, '0')) * unitNanos) / 10_000_000_000_000n
        : 0n

      nanoseconds += intVal + fracNanos
      if (string === '') break
    }

    const seconds = nanoseconds >= billionBigInt ? nanoseconds / billionBigInt : 0n
    const nanos = Number(nanoseconds % billionBigInt)

    if (isNegative) return new Duration(-seconds, -nanos)
    return new Duration(seconds, nanos)
  }

  functionOverload(`duration(string): google.protobuf.Duration`, (s) => {
    const d = parseDuration(s)
    // flow-studio: ±10000 years is the range of google.protobuf.Duration
    if (d.seconds > 315_576_000_000n || d.seconds < -315_576_000_000n) {
      throw evaluationError('invalid_duration', `duration out of range: ${s}`)
    }
    return d
  })
  functionOverload(`google.protobuf.Duration.getHours(): int`, (d) => d.getHours())
  functionOverload(`google.protobuf.Duration.getMinutes(): int`, (d) => d.getMinutes())
  functionOverload(`google.protobuf.Duration.getSeconds(): int`, (d) => d.getSeconds())
  functionOverload(`google.protobuf.Duration.getMilliseconds(): int`, (d) => d.getMilliseconds())
  registerOptional(registry)
}

function stringSize(str) {
  let count = 0
  for (const c of str) count++ // eslint-disable-line no-unused-vars
  return count
}
