import type { DesignCelFunction } from '../../../../shared/flow-design.ts';
import { celDocumentation } from './cel-completion.ts';

export interface CelHover {
  /** The function's name as written: `charAt`, `math.greatest`. */
  name: string;
  markdown: string;
  /** Where the name starts and ends, relative to the cursor (start ≤ 0 ≤ end). */
  start: number;
  end: number;
}

const IDENT_END = /[A-Za-z_]\w*$/;
const IDENT_START = /^\w*/;

/**
 * The documentation of the function or method whose name is under the cursor in a CEL
 * expression (`prefix` is the text before the cursor, `suffix` after it): a namespaced function
 * (`math.greatest`, also when hovering `math`), a method after a dot, or a global function.
 */
export function celHover(prefix: string, suffix: string, functions: readonly DesignCelFunction[]): CelHover | undefined {
  const left = IDENT_END.exec(prefix)?.[0] ?? '';
  const right = IDENT_START.exec(suffix)?.[0] ?? '';
  const word = left + right;
  if (!word || /^\d/.test(word)) return undefined;
  const before = prefix.slice(0, prefix.length - left.length);
  const after = suffix.slice(right.length);

  // `math.gre|atest`: the namespace precedes the word.
  const namespace = /(?:^|[^\w.])([A-Za-z_]\w*)\.$/.exec(before)?.[1];
  if (namespace) {
    const f = functions.find((fn) => fn.kind === 'function' && fn.name === `${namespace}.${word}`);
    if (f) return hover(f.name, [f], -(left.length + namespace.length + 1), right.length);
  }
  // `ma|th.greatest`: the word is the namespace.
  const member = /^\.([A-Za-z_]\w*)/.exec(after)?.[1];
  if (member && !before.endsWith('.')) {
    const f = functions.find((fn) => fn.kind === 'function' && fn.name === `${word}.${member}`);
    if (f) return hover(f.name, [f], -left.length, right.length + 1 + member.length);
  }
  if (before.endsWith('.')) {
    const methods = functions.filter((fn) => fn.kind === 'method' && fn.name === word);
    return methods.length ? hover(word, methods, -left.length, right.length) : undefined;
  }
  const f = functions.filter((fn) => fn.kind === 'function' && fn.name === word);
  return f.length ? hover(word, f, -left.length, right.length) : undefined;
}

function hover(name: string, matches: readonly DesignCelFunction[], start: number, end: number): CelHover {
  // A method on several receivers (size on string, list, map…) lists each signature once.
  const signatures = [...new Set(matches.map((f) => f.signature))];
  const doc = [...new Set(matches.map((f) => celDocumentation(f)))];
  return { name, start, end, markdown: ['```', ...signatures, '```', ...doc].join('\n') };
}
