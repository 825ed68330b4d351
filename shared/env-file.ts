/**
 * The .env convention of `env` resources, read the same way by the runtime (which folds the
 * values into its environment) and the platform (which only needs the names, to tell which
 * declared variables a frozen env resource satisfies). Pure: no Node and no DOM.
 *
 * - `NAME=value`, optionally prefixed with `export `; blank lines and `# comments` are skipped.
 * - Unquoted values are trimmed and end at ` #` (an inline comment).
 * - `'single'` quotes are literal; `"double"` quotes understand \n, \r, \t, \" and \\ and may
 *   span lines (PEM keys).
 *
 * Problems name the line, never its value: env files hold credentials.
 *
 * Hand-written on purpose: shared/ runs in the renderer too (no Node), and dotenv reports
 * nothing (a malformed line is silently dropped) and has no line numbers, while a studio user
 * needs "line 7: …" for a file whose values must never be echoed.
 */
export interface EnvFileEntry {
  name: string;
  value: string;
  line: number;
}

export interface EnvFile {
  entries: EnvFileEntry[];
  problems: Array<{ line: number; message: string }>;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

export function parseEnvFile(text: string): EnvFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const out: EnvFile = { entries: [], problems: [] };
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i].trim();
    if (raw === '' || raw.startsWith('#')) continue;
    const body = raw.startsWith('export ') ? raw.slice(7).trimStart() : raw;
    const eq = body.indexOf('=');
    if (eq <= 0) {
      out.problems.push({ line: lineNo, message: 'expected NAME=value' });
      continue;
    }
    const name = body.slice(0, eq).trim();
    if (!NAME.test(name)) {
      out.problems.push({ line: lineNo, message: 'a variable name is letters, digits and _ and does not start with a digit' });
      continue;
    }
    const rest = body.slice(eq + 1).trimStart();
    const quote = rest[0];
    if (quote !== '"' && quote !== "'") {
      const comment = rest.search(/\s#/);
      out.entries.push({ name, value: (comment === -1 ? rest : rest.slice(0, comment)).trim(), line: lineNo });
      continue;
    }
    // A quoted value may continue over the following lines until its closing quote.
    let text = rest.slice(1);
    let end = closingQuote(text, quote);
    let last = i;
    while (end === -1 && last + 1 < lines.length) {
      last++;
      text += '\n' + lines[last];
      end = closingQuote(text, quote);
    }
    if (end === -1) {
      out.problems.push({ line: lineNo, message: `the ${quote === '"' ? 'double' : 'single'} quote is never closed` });
      break;
    }
    const inner = text.slice(0, end);
    const value = quote === "'" ? inner : inner.replace(/\\(.)/g, (m, c: string) => ESCAPES[c] ?? m);
    out.entries.push({ name, value, line: lineNo });
    i = last;
  }
  return out;
}

function closingQuote(text: string, quote: string): number {
  for (let i = 0; i < text.length; i++) {
    if (quote === '"' && text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}
