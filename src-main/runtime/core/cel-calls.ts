import { closestName, suggest } from './did-you-mean.ts';

/**
 * The load-time check of what an expression calls: every function, method, macro and namespaced
 * function (`math.greatest`) must be one the environment declares, with as many arguments as one
 * of its overloads takes. cel-js itself only fails such a call when it is evaluated (so that
 * `f_unknown(1) || true` is true, as CEL's conformance suite wants); a flow must not wait for its
 * first message to learn that `sise(body.items)` is a typo.
 */

/** A function as cel-js's `getDefinitions()` lists it. */
export interface DeclaredFunction {
  name: string;
  /** The receiver's type for a method or a namespace's functions (`MathNamespace`), else null. */
  receiverType: string | null;
  params: readonly unknown[];
}

/** A declared variable; namespaces (`math`, `optional`, `cel`) are variables of a `…Namespace` type. */
export interface DeclaredVariable {
  name: string;
  type: string;
}

/** A call the environment does not declare, at an offset inside the expression. */
export interface CallProblem {
  message: string;
  offset: number;
}

interface AstNode {
  op: string;
  args: unknown;
  start?: number;
  end?: number;
}

type Arities = Map<string, Set<number>>;

export class CelCallChecker {
  private readonly functions: Arities = new Map();
  /** Methods of values (any receiver that is not a namespace). */
  private readonly methods: Arities = new Map();
  /** Per namespace variable (`math`), its functions. */
  private readonly namespaces = new Map<string, Arities>();

  constructor(functions: readonly DeclaredFunction[], variables: readonly DeclaredVariable[]) {
    const namespaceOf = new Map<string, string>();
    for (const v of variables) if (v.type.endsWith('Namespace')) namespaceOf.set(v.type, v.name);
    for (const f of functions) {
      const namespace = f.receiverType === null ? undefined : namespaceOf.get(f.receiverType);
      let table: Arities;
      if (f.receiverType === null) table = this.functions;
      else if (namespace === undefined) table = this.methods;
      else table = mapOf(this.namespaces, namespace);
      setOf(table, f.name).add(f.params.length);
    }
  }

  /** The first undeclared call of the parsed expression, in source order, or undefined. */
  check(ast: unknown, source: string): CallProblem | undefined {
    const problems: CallProblem[] = [];
    this.visit(ast, source, problems);
    return problems.sort((a, b) => a.offset - b.offset)[0];
  }

  private visit(value: unknown, source: string, problems: CallProblem[]): void {
    if (Array.isArray(value)) {
      for (const v of value) this.visit(v, source, problems);
      return;
    }
    if (!isNode(value)) {
      // optList/optMap keep their entries in an object ({elements, optional}).
      if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
        for (const v of Object.values(value)) this.visit(v, source, problems);
      }
      return;
    }
    const problem = value.op === 'call' ? this.checkCall(value) : value.op === 'rcall' ? this.checkMethodCall(value, source) : undefined;
    if (problem) problems.push(problem);
    this.visit(value.args, source, problems);
  }

  private checkCall(node: AstNode): CallProblem | undefined {
    const [name, args] = node.args as [string, unknown[]];
    const offset = node.start ?? 0;
    const arities = this.functions.get(name);
    if (arities === undefined) {
      return { offset, message: `unknown function "${name}"${this.hintForFunction(name)}` };
    }
    return arityProblem(`${name}()`, arities, args.length, offset);
  }

  private checkMethodCall(node: AstNode, source: string): CallProblem | undefined {
    const [name, receiver, args] = node.args as [string, unknown, unknown[]];
    const at = isNode(receiver) && receiver.end !== undefined ? source.indexOf(name, receiver.end) : -1;
    const offset = at >= 0 ? at : (node.start ?? 0);
    const namespace = isNode(receiver) && receiver.op === 'id' && typeof receiver.args === 'string' ? this.namespaces.get(receiver.args) : undefined;
    if (namespace !== undefined) {
      const ns = (receiver as AstNode).args as string;
      const arities = namespace.get(name);
      if (arities === undefined) return { offset, message: `unknown function "${ns}.${name}"${suggestQualified(ns, name, [...namespace.keys()])}` };
      return arityProblem(`${ns}.${name}()`, arities, args.length, offset);
    }
    const arities = this.methods.get(name);
    if (arities === undefined) {
      const asFunction = this.functions.has(name) ? `; ${name} is a function: write ${name}(…)` : '';
      return { offset, message: `unknown method "${name}"${asFunction || suggest(name, [...this.methods.keys()])}` };
    }
    return arityProblem(`.${name}()`, arities, args.length, offset);
  }

  /** A near function name, a namespaced one of the same name (`greatest` → `math.greatest`), or a method. */
  private hintForFunction(name: string): string {
    const close = closestName(name, this.functions.keys());
    if (close !== undefined) return `; did you mean "${close}"?`;
    for (const [ns, fns] of this.namespaces) if (fns.has(name)) return `; did you mean "${ns}.${name}"?`;
    if (this.methods.has(name)) return `; ${name} is a method: write value.${name}(…)`;
    return '';
  }
}

function suggestQualified(ns: string, name: string, names: string[]): string {
  const close = closestName(name, names);
  if (close !== undefined) return `; did you mean "${ns}.${close}"?`;
  return names.length <= 12 ? `; ${ns} has ${names.map((n) => `${ns}.${n}`).join(', ')}` : '';
}

function arityProblem(what: string, arities: Set<number>, given: number, offset: number): CallProblem | undefined {
  if (arities.has(given)) return undefined;
  const counts = [...arities].sort((a, b) => a - b);
  return { offset, message: `${what} takes ${describeCounts(counts)}, got ${given}` };
}

/** `1 argument`, `2 or 3 arguments`, `1 to 12 arguments`. */
function describeCounts(counts: number[]): string {
  const last = counts[counts.length - 1];
  const noun = last === 1 && counts.length === 1 ? 'argument' : 'arguments';
  if (counts.length === 1) return `${last} ${noun}`;
  const contiguous = last - counts[0] === counts.length - 1;
  if (contiguous && counts.length > 2) return `${counts[0]} to ${last} ${noun}`;
  return `${counts.slice(0, -1).join(', ')} or ${last} ${noun}`;
}

function isNode(value: unknown): value is AstNode {
  return value !== null && typeof value === 'object' && typeof (value as { op?: unknown }).op === 'string' && 'args' in value;
}

function mapOf(map: Map<string, Arities>, key: string): Arities {
  let m = map.get(key);
  if (!m) map.set(key, (m = new Map()));
  return m;
}

function setOf(map: Arities, key: string): Set<number> {
  let s = map.get(key);
  if (!s) map.set(key, (s = new Set()));
  return s;
}
