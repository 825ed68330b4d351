import { CelCompileError, type CelEnvironment, type CompiledCel } from '../core/cel.ts';
import { errorMessage } from '../core/errors.ts';

/**
 * A breakpoint on a step, as a debugger front end sets it: the step by its path, and optionally a
 * CEL condition (`body.customer == "bob"`), a hit condition (`3`, `>= 3`, `%2`) and a log message
 * that makes it a logpoint (`qty={body.qty}`: the run writes the line and goes on).
 */
export interface StepBreakpoint {
  /** Chosen by the front end; echoed back in events. */
  id: number;
  step: string;
  condition?: string;
  hitCondition?: string;
  logMessage?: string;
}

/** Whether a breakpoint can work as written: a condition, hit condition or message that does not compile says where. */
export interface BreakpointCheck {
  id: number;
  verified: boolean;
  message?: string;
}

/** A breakpoint compiled in one runtime's CEL environment. */
export interface CompiledBreakpoint {
  spec: StepBreakpoint;
  condition?: CompiledCel;
  hits?: HitCondition;
  /** Literal text and compiled `{…}` parts of a logpoint's message. */
  message?: Array<string | CompiledCel>;
}

export interface HitCondition {
  op: '==' | '>=' | '>' | '<' | '<=' | '%';
  n: number;
}

/**
 * `5` or `==5` pauses on the fifth hit only, `>=5` from the fifth on, `>5`, `<5`, `<=5` likewise,
 * `%5` on every fifth. A hit is a time the run reaches the step with the condition true.
 */
export function parseHitCondition(text: string): HitCondition {
  const m = /^\s*(==?|>=|>|<=|<|%)?\s*(\d+)\s*$/.exec(text);
  if (!m) throw new Error(`hit condition "${text}" is not a count: write 5 (the fifth hit), >= 5, > 5, < 5, <= 5 or %5 (every fifth)`);
  const op = (m[1] === '=' || m[1] === undefined ? '==' : m[1]) as HitCondition['op'];
  const n = Number(m[2]);
  if (op === '%' && n === 0) throw new Error('hit condition %0 never matches; write %1 or more');
  return { op, n };
}

export function hitMatches(h: HitCondition, hits: number): boolean {
  switch (h.op) {
    case '==':
      return hits === h.n;
    case '>=':
      return hits >= h.n;
    case '>':
      return hits > h.n;
    case '<':
      return hits < h.n;
    case '<=':
      return hits <= h.n;
    case '%':
      return hits % h.n === 0;
  }
}

/**
 * Splits a logpoint's message into text and `{expression}` parts; `{{` and `}}` are literal
 * braces. An expression may hold braces of its own (`{ {"a": 1}.a }`) as long as they balance.
 */
export function logMessageParts(message: string): Array<{ text: string } | { expr: string; offset: number }> {
  const parts: Array<{ text: string } | { expr: string; offset: number }> = [];
  let text = '';
  for (let i = 0; i < message.length; i++) {
    const c = message[i];
    if ((c === '{' || c === '}') && message[i + 1] === c) {
      text += c;
      i++;
      continue;
    }
    if (c === '}') throw new Error(`log message: a "}" at ${i + 1} closes nothing; write }} for a brace`);
    if (c !== '{') {
      text += c;
      continue;
    }
    let depth = 1;
    let j = i + 1;
    let quote: string | undefined;
    for (; j < message.length && depth > 0; j++) {
      const d = message[j];
      if (quote) {
        if (d === '\\') j++;
        else if (d === quote) quote = undefined;
      } else if (d === '"' || d === "'") quote = d;
      else if (d === '{') depth++;
      else if (d === '}') depth--;
    }
    if (depth > 0) throw new Error(`log message: the "{" at ${i + 1} is not closed; write {{ for a brace`);
    if (text) parts.push({ text });
    text = '';
    const expr = message.slice(i + 1, j - 1);
    if (expr.trim() === '') throw new Error(`log message: "{}" at ${i + 1} holds no expression`);
    parts.push({ expr, offset: i + 1 });
    i = j - 1;
  }
  if (text) parts.push({ text });
  return parts;
}

/** Compiles a breakpoint's expressions, or throws saying which one is wrong and where. */
export function compileBreakpoint(spec: StepBreakpoint, cel: CelEnvironment): CompiledBreakpoint {
  const out: CompiledBreakpoint = { spec };
  if (spec.condition !== undefined && spec.condition.trim() !== '') out.condition = compileIn(cel, spec.condition, 'condition');
  if (spec.hitCondition !== undefined && spec.hitCondition.trim() !== '') out.hits = parseHitCondition(spec.hitCondition);
  if (spec.logMessage !== undefined && spec.logMessage !== '') {
    out.message = logMessageParts(spec.logMessage).map((p) => ('text' in p ? p.text : compileIn(cel, p.expr, `log message {${p.expr}}`, p.offset)));
  }
  return out;
}

/** Checks a breakpoint without keeping what it compiled. */
export function checkBreakpoint(spec: StepBreakpoint, cel: CelEnvironment): BreakpointCheck {
  try {
    compileBreakpoint(spec, cel);
    return { id: spec.id, verified: true };
  } catch (err) {
    return { id: spec.id, verified: false, message: errorMessage(err) };
  }
}

function compileIn(cel: CelEnvironment, source: string, what: string, offset = 0): CompiledCel {
  try {
    return cel.compile(source);
  } catch (err) {
    if (err instanceof CelCompileError) throw new Error(`${what}: ${err.message} (at ${offset + err.offset + 1})`);
    throw err;
  }
}
