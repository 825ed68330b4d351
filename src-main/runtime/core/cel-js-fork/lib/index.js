import {ParseError, EvaluationError, TypeError} from './errors.js'
import {parse, evaluate, check, Environment} from './evaluator.js'
import {serialize} from './serialize.js'
import {Optional} from './optional.js'
import {UnsignedInt, Duration} from './functions.js' // flow-studio: value classes for host functions

export {
  parse,
  evaluate,
  check,
  Environment,
  ParseError,
  EvaluationError,
  TypeError,
  serialize,
  Optional,
  UnsignedInt,
  Duration
}

export default {
  parse,
  evaluate,
  check,
  Environment,
  ParseError,
  EvaluationError,
  TypeError,
  serialize,
  Optional
}
