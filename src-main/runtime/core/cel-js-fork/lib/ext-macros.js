// flow-studio: cel-go extension macros cel-js 8.0.0 lacks — two-variable comprehensions
// (all, exists, existsOne, transformList, transformMap, transformMapEntry), cel.block with
// cel.index / cel.iterVar / cel.accuVar, and optional.optMap / optFlatMap.
import {evaluationError, parseError} from './errors.js'
import {OPERATORS as OPS} from './operators.js'
import {Optional} from './optional.js'
import {objKeys, isArray} from './globals.js'

function identifier(node, message) {
  if (node.op === 'id') return node.args
  if (node.meta.alternate?.op === 'id') return node.meta.alternate.args
  throw parseError('invalid_macro_argument', message, node)
}

function isPlainMap(v) {
  if (v instanceof Map) return true
  if (!v || typeof v !== 'object' || isArray(v)) return false
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

/** [key, value] pairs: (index, element) of a list, (key, value) of a map. */
function pairsOf(coll, node) {
  if (isArray(coll)) return coll.map((v, i) => [BigInt(i), v])
  if (coll instanceof Map) return [...coll.entries()]
  if (isPlainMap(coll)) return objKeys(coll).map((k) => [k, coll[k]])
  throw evaluationError(
    'invalid_comprehension_range',
    'a two-variable comprehension needs a list or a map',
    node
  )
}

function iterationTypes(checker, type) {
  const dyn = checker.getType('dyn')
  if (type.kind === 'list') return [checker.getType('int'), type.valueType]
  if (type.kind === 'map') return [type.keyType, type.valueType]
  return [dyn, dyn]
}

function toMap(entries) {
  if (entries.every(([k]) => typeof k === 'string')) {
    const obj = {}
    for (const [k, v] of entries) {
      if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue
      obj[k] = v
    }
    return obj
  }
  return new Map(entries)
}

// Runs `body(step)` over the pairs, where step(node) evaluates node with both variables set;
// handles a predicate or transform that turns out asynchronous by continuing with await.
function comprehension2(kind) {
  function typeCheck(checker, m, ctx) {
    const [keyType, valueType] = iterationTypes(checker, checker.check(m.receiver, ctx))
    m.ctx1 = ctx.forkWithVariable(m.v1, keyType)
    m.ctx2 = m.ctx1.forkWithVariable(m.v2, valueType)
    if (m.filter) checker.check(m.filter, m.ctx2)
    const t = checker.check(m.body, m.ctx2)
    if (kind.result === 'bool') return checker.getType('bool')
    if (kind.result === 'list') return checker.registry.getListType(t)
    return checker.getType('map<dyn, dyn>')
  }

  function evaluate(ev, m, ctx) {
    const coll = ev.run(m.receiver, ctx)
    if (coll instanceof Promise) return coll.then((c) => run(ev, m, ctx, c))
    return run(ev, m, ctx, coll)
  }

  function run(ev, m, ctx, coll) {
    const pairs = pairsOf(coll, m.ast)
    const c1 = ctx.forkWithVariable(m.v1, m.ctx1.iterType)
    const c2 = c1.forkWithVariable(m.v2, m.ctx2.iterType)
    const at = (i) => (c1.setIterValue(pairs[i][0], ev), c2.setIterValue(pairs[i][1], ev), c2)
    return kind.run(ev, m, pairs, at)
  }

  return ({ast, args, receiver}) => {
    const [a, b, ...rest] = args
    const msg = `${ast.args[0]}(k, v, …) needs identifiers as its first two arguments`
    return {
      ast,
      receiver,
      v1: identifier(a, msg),
      v2: identifier(b, msg),
      filter: rest.length === 2 ? rest[0] : undefined,
      body: rest.at(-1),
      typeCheck,
      evaluate
    }
  }
}

function needBool(v, node) {
  if (typeof v === 'boolean') return v
  throw evaluationError('invalid_predicate', 'the predicate must return bool', node)
}

// all / exists: the deciding value wins over errors met before or after it (CEL's commutative
// logical operators); without it, the first error is the result.
function quantifier(decisive) {
  function settle(r, m, state) {
    if (r instanceof Error) return (state.error ??= r), false
    if (typeof r !== 'boolean') {
      state.error ??= evaluationError('invalid_predicate', 'the predicate must return bool', m.body)
      return false
    }
    return r === decisive
  }
  async function rest(ev, m, pairs, at, i, pending, state) {
    if (settle(await pending.catch((e) => e), m, state)) return decisive
    for (i++; i < pairs.length; i++) {
      let r = ev.tryEval(m.body, at(i))
      if (r instanceof Promise) r = await r.catch((e) => e)
      if (settle(r, m, state)) return decisive
    }
    if (state.error) throw state.error
    return !decisive
  }
  return {
    result: 'bool',
    run(ev, m, pairs, at) {
      const state = {error: undefined}
      for (let i = 0; i < pairs.length; i++) {
        const r = ev.tryEval(m.body, at(i))
        if (r instanceof Promise) return rest(ev, m, pairs, at, i, r, state)
        if (settle(r, m, state)) return decisive
      }
      if (state.error) throw state.error
      return !decisive
    }
  }
}

async function awaitAll(ev, m, pairs, at, visit) {
  for (let i = 0; i < pairs.length; i++) {
    const ctx = at(i)
    if (m.filter) {
      let keep = ev.run(m.filter, ctx)
      if (keep instanceof Promise) keep = await keep
      if (!needBool(keep, m.filter)) continue
    }
    let v = ev.run(m.body, ctx)
    if (v instanceof Promise) v = await v
    visit(v, pairs[i])
  }
}

// Collecting comprehensions: errors are fatal. Sync first; a Promise switches to awaitAll.
function collecting(result, visitFactory, finish) {
  return {
    result,
    run(ev, m, pairs, at) {
      const state = []
      const visit = visitFactory(state, m)
      for (let i = 0; i < pairs.length; i++) {
        const ctx = at(i)
        if (m.filter) {
          const keep = ev.run(m.filter, ctx)
          if (keep instanceof Promise) return restartAsync(ev, m, pairs, at, visitFactory, finish)
          if (!needBool(keep, m.filter)) continue
        }
        const v = ev.run(m.body, ctx)
        if (v instanceof Promise) return restartAsync(ev, m, pairs, at, visitFactory, finish)
        visit(v, pairs[i])
      }
      return finish(state)
    }
  }
}

async function restartAsync(ev, m, pairs, at, visitFactory, finish) {
  const state = []
  await awaitAll(ev, m, pairs, at, visitFactory(state, m))
  return finish(state)
}

const keyText = (k) => (typeof k === 'bigint' ? `i${k}` : typeof k === 'string' ? `s${k}` : `o${String(k)}`)

const KINDS = {
  all: quantifier(false),
  exists: quantifier(true),
  existsOne: collecting(
    'bool',
    (state, m) => (v) => needBool(v, m.body) && state.push(v),
    (state) => state.length === 1
  ),
  transformList: collecting(
    'list',
    (state) => (v) => state.push(v),
    (state) => state
  ),
  transformMap: collecting(
    'map',
    (state) => (v, pair) => state.push([pair[0], v]),
    toMap
  ),
  transformMapEntry: collecting(
    'map',
    (state, m) => {
      const seen = new Set()
      return (v) => {
        if (!isPlainMap(v)) {
          throw evaluationError('invalid_map_entry', 'transformMapEntry must return a map', m.body)
        }
        for (const [k, val] of v instanceof Map ? v.entries() : objKeys(v).map((k) => [k, v[k]])) {
          if (seen.has(keyText(k))) {
            throw evaluationError('duplicate_map_key', `insertion of duplicate map key: ${k}`, m.body)
          }
          seen.add(keyText(k))
          state.push([k, val])
        }
      }
    },
    toMap
  )
}

// --- cel.block --------------------------------------------------------------------------

const indexName = (i) => `@index${i}`

function blockMacro({ast, args}) {
  const [list, result] = args
  if (list.op !== 'list') {
    throw parseError('invalid_macro_argument', 'cel.block() needs a list literal first', list)
  }
  return {ast, slots: list.args, result, typeCheck: blockTypeCheck, evaluate: blockEvaluate}
}

function blockTypeCheck(checker, m, ctx) {
  let c = ctx
  m.types = []
  for (let i = 0; i < m.slots.length; i++) {
    const t = checker.check(m.slots[i], c)
    m.types.push(t)
    c = c.forkWithVariable(indexName(i), t)
  }
  return checker.check(m.result, c)
}

function blockEvaluate(ev, m, ctx) {
  return blockStep(ev, m, ctx, 0)
}

function blockStep(ev, m, ctx, i) {
  for (; i < m.slots.length; i++) {
    const v = ev.run(m.slots[i], ctx)
    const next = ctx.forkWithVariable(indexName(i), m.types[i])
    if (v instanceof Promise) {
      const from = i
      return v.then((value) => blockStep(ev, m, (next.setIterValue(value, ev), next), from + 1))
    }
    ctx = (next.setIterValue(v, ev), next)
  }
  return ev.run(m.result, ctx)
}

function literalIndex(node, what) {
  if (node.op === 'value' && typeof node.args === 'bigint' && node.args >= 0n) return node.args
  throw parseError('invalid_macro_argument', `${what} needs a non-negative int literal`, node)
}

// --- optMap / optFlatMap ------------------------------------------------------------------

function optionalTransform(flat) {
  const desc = flat ? 'optFlatMap(v, expr)' : 'optMap(v, expr)'
  function typeCheck(checker, m, ctx) {
    const t = checker.check(m.receiver, ctx)
    const valueType = t.kind === 'optional' ? t.valueType : checker.getType('dyn')
    m.ctx = ctx.forkWithVariable(m.v, valueType)
    const r = checker.check(m.body, m.ctx)
    return flat ? r : checker.registry.getOptionalType(r)
  }
  function finish(ev, m, ctx, opt) {
    if (!(opt instanceof Optional)) {
      throw evaluationError('optional_expected', `${desc} receiver must be optional`, m.receiver)
    }
    if (!opt.hasValue()) return opt
    const c = ctx.forkWithVariable(m.v, m.ctx.iterType)
    c.setIterValue(opt.value(), ev)
    const r = ev.run(m.body, c)
    const wrap = (v) => {
      if (!flat) return Optional.of(v)
      if (v instanceof Optional) return v
      throw evaluationError('optional_expected', `${desc} must return an optional`, m.body)
    }
    return r instanceof Promise ? r.then(wrap) : wrap(r)
  }
  return ({ast, args, receiver}) => ({
    ast,
    receiver,
    v: identifier(args[0], `${desc} needs an identifier first`),
    body: args[1],
    typeCheck,
    evaluate(ev, m, ctx) {
      const o = ev.run(m.receiver, ctx)
      return o instanceof Promise ? o.then((v) => finish(ev, m, ctx, v)) : finish(ev, m, ctx, o)
    }
  })
}

export function registerExtensionMacros(registry) {
  const overload = (sig, handler) => registry.registerFunctionOverload(sig, handler)
  for (const name of ['all', 'exists', 'existsOne']) {
    overload(`list.${name}(ast, ast, ast): bool`, comprehension2(KINDS[name]))
  }
  overload('list.existsOne(ast, ast): bool', existsOneAlias(registry))
  for (const name of ['transformList', 'transformMap', 'transformMapEntry']) {
    const ret = name === 'transformList' ? 'list<dyn>' : 'map<dyn, dyn>'
    overload(`list.${name}(ast, ast, ast): ${ret}`, comprehension2(KINDS[name]))
    overload(`list.${name}(ast, ast, ast, ast): ${ret}`, comprehension2(KINDS[name]))
  }

  overload('CelNamespace.block(ast, ast): dyn', blockMacro)
  overload('CelNamespace.index(ast): dyn', ({ast, args}) => ({
    callAst: ast.clone(OPS.id, indexName(literalIndex(args[0], 'cel.index()')))
  }))
  overload('CelNamespace.iterVar(ast, ast): dyn', ({ast, args}) => ({
    callAst: ast.clone(
      OPS.id,
      `@it:${literalIndex(args[0], 'cel.iterVar()')}:${literalIndex(args[1], 'cel.iterVar()')}`
    )
  }))
  overload('CelNamespace.accuVar(ast, ast): dyn', ({ast, args}) => ({
    callAst: ast.clone(
      OPS.id,
      `@ac:${literalIndex(args[0], 'cel.accuVar()')}:${literalIndex(args[1], 'cel.accuVar()')}`
    )
  }))

  overload('optional.optMap(ast, ast): optional<dyn>', optionalTransform(false))
  overload('optional.optFlatMap(ast, ast): optional<dyn>', optionalTransform(true))
}

// existsOne(x, p) is cel-go's spelling of exists_one(x, p).
function existsOneAlias(registry) {
  const decl = registry.findMacro('exists_one', true, 2)
  return (opts) => decl.handler(opts)
}
