import {UnsignedInt, Duration} from './functions.js'
import {evaluationError} from './errors.js'
import {isArray, hasOwn, objKeys, MIN_UINT, MIN_INT, MAX_INT} from './globals.js'

export function registerOverloads(registry) {
  const unaryOverload = (op, t, h, ret) => registry.unaryOverload(op, t, h, ret, false)
  const binaryOverload = (l, op, r, h, ret) => registry.binaryOverload(l, op, r, h, ret, false)

  function verifyInteger(v, ast) {
    if (v <= MAX_INT && v >= MIN_INT) return v
    throw evaluationError('numeric_overflow', `integer overflow: ${v}`, ast)
  }

  function throwDivisionByZero(ast) {
    throw evaluationError('division_by_zero', 'division by zero', ast)
  }

  function throwModuloByZero(ast) {
    throw evaluationError('modulo_by_zero', 'modulo by zero', ast)
  }

  unaryOverload('!', 'bool', (a) => !a)
  unaryOverload('-', 'int', (a, ast) => verifyInteger(-a, ast)) // flow-studio: -(-2^63) overflows
  binaryOverload('dyn<int>', `==`, `double`, (a, b) => a == b) // eslint-disable-line eqeqeq
  binaryOverload('dyn<int>', `==`, `uint`, (a, b) => a == b.valueOf()) // eslint-disable-line eqeqeq
  binaryOverload('int', '*', 'int', (a, b, ast) => verifyInteger(a * b, ast))
  binaryOverload('int', '+', 'int', (a, b, ast) => verifyInteger(a + b, ast))
  binaryOverload('int', '-', 'int', (a, b, ast) => verifyInteger(a - b, ast))
  binaryOverload('int', '/', 'int', (a, b, ast) => {
    if (b === MIN_UINT) return throwDivisionByZero(ast)
    return verifyInteger(a / b, ast) // flow-studio: -2^63 / -1 overflows
  })
  binaryOverload('int', '%', 'int', (a, b, ast) => {
    if (b === MIN_UINT) return throwModuloByZero(ast)
    return a % b
  })

  unaryOverload('-', 'double', (a) => -a)
  binaryOverload('double', '*', 'double', (a, b) => a * b)
  binaryOverload('double', '+', 'double', (a, b) => a + b)
  binaryOverload('double', '-', 'double', (a, b) => a - b)
  binaryOverload('double', '/', 'double', (a, b) => a / b)

  binaryOverload('string', '+', 'string', (a, b) => a + b)
  binaryOverload('list<V>', '+', 'list<V>', (a, b) => [...a, ...b])
  binaryOverload('bytes', '+', 'bytes', (a, b) => {
    if (!a.length) return b
    if (!b.length) return a

    const result = new Uint8Array(a.length + b.length)
    result.set(a, 0)
    result.set(b, a.length)
    return result
  })

  // flow-studio: results outside the ranges of google.protobuf.Duration/Timestamp are errors
  const GPD = 'google.protobuf.Duration'
  binaryOverload(GPD, '+', GPD, (a, b, ast) => checkDuration(a.addDuration(b), ast))
  binaryOverload(GPD, '-', GPD, (a, b, ast) => checkDuration(a.subtractDuration(b), ast))
  binaryOverload(GPD, '==', GPD, (a, b) => a.seconds === b.seconds && a.nanos === b.nanos)

  const GPT = 'google.protobuf.Timestamp'
  binaryOverload(GPT, '==', GPT, (a, b) => a.getTime() === b.getTime())
  binaryOverload(GPT, '-', GPT, (a, b, ast) => {
    const ms = BigInt(a.getTime() - b.getTime())
    // the difference of two timestamps must fit in int64 nanoseconds (±292 years), as in cel-go
    if (ms * 1_000_000n > MAX_INT || ms * 1_000_000n < MIN_INT) {
      throw evaluationError('duration_out_of_range', 'duration out of range', ast)
    }
    return new Duration(ms / 1000n, Number(ms % 1000n) * 1_000_000)
  }, GPD)
  binaryOverload(GPT, '-', GPD, (a, b, ast) => checkTimestamp(b.subtractTimestamp(a), ast))
  binaryOverload(GPT, '+', GPD, (a, b, ast) => checkTimestamp(b.extendTimestamp(a), ast))
  binaryOverload(GPD, '+', GPT, (a, b, ast) => checkTimestamp(a.extendTimestamp(b), ast), GPT)

  // flow-studio: optionals compare by presence and value
  binaryOverload('optional<A>', '==', 'optional<A>', (a, b, ast, ev) => {
    if (!a.hasValue() || !b.hasValue()) return a.hasValue() === b.hasValue()
    return isEqual(a.value(), b.value(), ast, ev)
  })

  function listIncludes(value, list, ast, ev) {
    if (list instanceof Set && list.has(value)) return true
    for (const v of list) if (isEqual(value, v, ast, ev)) return true
    return false
  }

  function mapIncludes(a, b) {
    if (b instanceof Map) return mapGet(b, a) !== undefined
    return hasOwn(b, a) ? b[a] !== undefined : false
  }

  function listMembership(value, list, ast, ev) {
    return listIncludes(value, list, ast, ev)
  }

  binaryOverload('V', 'in', 'list<V>', listMembership)
  binaryOverload('K', 'in', 'map<K, V>', mapIncludes)

  for (const t of ['type', 'null', 'bool', 'string', 'int', 'double']) {
    binaryOverload(t, '==', t, (a, b) => a === b)
  }

  binaryOverload('bytes', `==`, 'bytes', (a, b) => {
    if (a === b) return true

    let i = a.length
    if (i !== b.length) return false
    while (i--) if (a[i] !== b[i]) return false
    return true
  })

  binaryOverload('list<V>', `==`, 'list<V>', (a, b, ast, ev) => {
    if (a === b) return true

    if (isArray(a) && isArray(b)) {
      const length = a.length
      if (length !== b.length) return false
      for (let i = 0; i < length; i++) {
        if (!isEqual(a[i], b[i], ast, ev)) return false
      }
      return true
    }

    if (a instanceof Set && b instanceof Set) {
      if (a.size !== b.size) return false
      for (const value of a) if (!b.has(value)) return false
      return true
    }

    const arr = a instanceof Set ? b : a
    const set = a instanceof Set ? a : b
    if (!isArray(arr)) return false
    if (arr.length !== set?.size) return false
    for (let i = 0; i < arr.length; i++) if (!set.has(arr[i])) return false
    return true
  })

  binaryOverload('map<K, V>', `==`, 'map<K, V>', (a, b, ast, ev) => {
    if (a === b) return true

    if (a instanceof Map && b instanceof Map) {
      if (a.size !== b.size) return false
      for (const [key, value] of a)
        if (!(b.has(key) && isEqual(value, b.get(key), ast, ev))) return false
      return true
    }

    if (a instanceof Map || b instanceof Map) {
      const obj = a instanceof Map ? b : a
      const map = a instanceof Map ? a : b
      const keysObj = objKeys(obj)
      if (map.size !== keysObj.length) return false
      for (const [key, value] of map) {
        if (!(key in obj && isEqual(value, obj[key], ast, ev))) return false
      }
      return true
    }

    const keysA = objKeys(a)
    const keysB = objKeys(b)
    if (keysA.length !== keysB.length) return false

    for (let i = 0; i < keysA.length; i++) {
      const key = keysA[i]
      if (!(key in b && isEqual(a[key], b[key], ast, ev))) return false
    }
    return true
  })

  binaryOverload('uint', '==', 'uint', (a, b) => a.valueOf() === b.valueOf())
  // flow-studio: numbers are equal by value across int, uint and double (`1.0 == 1`, `2u != 2`)
  binaryOverload('int', '==', 'double', (a, b) => a == b) // eslint-disable-line eqeqeq
  binaryOverload('int', '==', 'uint', (a, b) => a === b.valueOf())
  binaryOverload('uint', '==', 'double', (a, b) => a.valueOf() == b) // eslint-disable-line eqeqeq
  binaryOverload('dyn<uint>', `==`, `double`, (a, b) => a.valueOf() == b) // eslint-disable-line eqeqeq

  binaryOverload('uint', '+', 'uint', (a, b) => new UnsignedInt(a.valueOf() + b.valueOf()))
  binaryOverload('uint', '-', 'uint', (a, b) => new UnsignedInt(a.valueOf() - b.valueOf()))
  binaryOverload('uint', '*', 'uint', (a, b) => new UnsignedInt(a.valueOf() * b.valueOf()))
  binaryOverload('uint', '/', 'uint', (a, b, ast) => {
    if (b.valueOf() === MIN_UINT) return throwDivisionByZero(ast)
    return new UnsignedInt(a.valueOf() / b.valueOf())
  })
  binaryOverload('uint', '%', 'uint', (a, b, ast) => {
    if (b.valueOf() === MIN_UINT) return throwModuloByZero(ast)
    return new UnsignedInt(a.valueOf() % b.valueOf())
  })

  for (const [left, right] of [
    ['bool', 'bool'],
    ['int', 'int'],
    ['uint', 'uint'],
    ['double', 'double'],
    ['string', 'string'],
    ['google.protobuf.Timestamp', 'google.protobuf.Timestamp'],
    ['google.protobuf.Duration', 'google.protobuf.Duration'],
    ['bytes', 'bytes'], // flow-studio: bytes order lexicographically
    ['int', 'uint'],
    ['int', 'double'],
    ['double', 'int'],
    ['double', 'uint'],
    ['uint', 'int'],
    ['uint', 'double']
  ]) {
    if (left === 'bytes') {
      binaryOverload(left, '<', right, (a, b) => compareBytes(a, b) < 0)
      binaryOverload(left, '<=', right, (a, b) => compareBytes(a, b) <= 0)
      binaryOverload(left, '>', right, (a, b) => compareBytes(a, b) > 0)
      binaryOverload(left, '>=', right, (a, b) => compareBytes(a, b) >= 0)
      continue
    }
    binaryOverload(left, '<', right, (a, b) => a < b)
    binaryOverload(left, '<=', right, (a, b) => a <= b)
    binaryOverload(left, '>', right, (a, b) => a > b)
    binaryOverload(left, '>=', right, (a, b) => a >= b)
  }
}

function compareBytes(a, b) {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return a.length - b.length
}

const MAX_DURATION_SECONDS = 315_576_000_000n
const MIN_TIMESTAMP_MS = -62135596800000
const MAX_TIMESTAMP_MS = 253402300799999

export function checkDuration(d, ast) {
  const s = d.seconds
  if (s <= MAX_DURATION_SECONDS && s >= -MAX_DURATION_SECONDS) return d
  throw evaluationError('duration_out_of_range', 'duration out of range', ast)
}

function checkTimestamp(t, ast) {
  const ms = t.getTime()
  if (ms >= MIN_TIMESTAMP_MS && ms <= MAX_TIMESTAMP_MS) return t
  throw evaluationError('timestamp_out_of_range', 'timestamp out of range', ast)
}

// flow-studio: numbers compare by value across int, uint and double (`dyn(3u) in [3]`)
function numericKey(v) {
  if (typeof v === 'bigint' || typeof v === 'number') return v
  if (v instanceof UnsignedInt) return v.valueOf()
  return undefined
}

/** A Map entry by key, where a numeric key matches an equal number of another numeric type. */
export function mapGet(map, key) {
  const v = map.get(key)
  if (v !== undefined) return v
  const n = numericKey(key)
  if (n === undefined) return undefined
  for (const [k, value] of map) {
    const m = numericKey(k)
    if (m !== undefined && m == n) return value // eslint-disable-line eqeqeq
  }
  return undefined
}

function isEqual(a, b, ast, ev) {
  if (a === b) return true
  const na = numericKey(a)
  if (na !== undefined) {
    const nb = numericKey(b)
    return nb !== undefined && na == nb // eslint-disable-line eqeqeq
  }
  switch (typeof a) {
    case 'undefined':
    case 'string':
    case 'boolean':
      return false
    case 'bigint':
      // eslint-disable-next-line eqeqeq
      if (typeof b === 'number') return a == b
      return false
    case 'number':
      // eslint-disable-next-line eqeqeq
      if (typeof b === 'bigint') return a == b
      return false
    case 'object':
      if (typeof b !== 'object') return false
      const leftType = ev.debugType(a)
      const rightType = ev.debugType(b)
      if (leftType !== rightType) return false

      const overload = ev.registry.findBinaryOverload('==', leftType, rightType)
      if (!overload) return false
      return overload.handler(a, b, ast, ev)
  }
  throw evaluationError('invalid_comparison_type', `Cannot compare values of type ${typeof a}`, ast)
}
