import type { CelSample, DesignCelFunction } from '../../../../shared/flow-design.ts';
import type { CelScope } from './cel-scope.ts';

export interface CelSuggestion {
  label: string;
  kind: 'variable' | 'field' | 'function' | 'method' | 'keyword';
  detail: string;
  documentation?: string;
  insertText: string;
  /** Insert as a snippet (`$0` marks where the cursor goes). */
  snippet?: boolean;
  /** Characters before the cursor the suggestion replaces (the partial word, or `.name`). */
  replace: number;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ROOTS = [
  { name: 'body', detail: 'the message body' },
  { name: 'vars', detail: 'the message variables' },
  { name: 'correlationID', detail: 'the message’s correlation id' },
];

/**
 * Completion inside a CEL setting, from the text before the cursor: after `vars.` the variables
 * known at this step (path parameters, query, copied headers, results of earlier blocks), after
 * `body.` the fields of the sample message, after any value its methods, elsewhere the names a
 * message has and every function.
 */
export function celSuggestions(prefix: string, scope: CelScope | undefined, functions: readonly DesignCelFunction[], sample?: CelSample): CelSuggestion[] {
  if (insideString(prefix)) return [];
  const member = /([A-Za-z_]\w*(?:\??\.[A-Za-z_]\w*|\[[^\]]*\])*)\??\.([A-Za-z_]\w*)?$/.exec(prefix);
  if (member) return memberSuggestions(member[1], member[2] ?? '', scope, functions, sample);
  const word = /(?:^|[^\w.])([A-Za-z_]\w*)?$/.exec(prefix);
  if (!word) return [];
  const partial = word[1] ?? '';
  const out: CelSuggestion[] = ROOTS.map((r) => ({ label: r.name, kind: 'variable', detail: r.detail, insertText: r.name, replace: partial.length }));
  if (scope?.inErrorChain) out.push({ label: 'error', kind: 'variable', detail: 'the failure: {message, step, status}', insertText: 'error', replace: partial.length });
  for (const f of functions) {
    if (f.kind !== 'function') continue;
    out.push({ label: f.name, kind: 'function', detail: f.signature, documentation: celDocumentation(f), insertText: `${f.name}($0)`, snippet: true, replace: partial.length });
  }
  for (const k of ['true', 'false', 'null']) out.push({ label: k, kind: 'keyword', detail: 'literal', insertText: k, replace: partial.length });
  return out;
}

function memberSuggestions(receiver: string, partial: string, scope: CelScope | undefined, functions: readonly DesignCelFunction[], sample?: CelSample): CelSuggestion[] {
  // After a namespace (`math.`, `optional.`, `base64.`): its functions.
  const namespaced = functions.filter((f) => f.kind === 'function' && f.name.startsWith(`${receiver}.`) && !f.name.slice(receiver.length + 1).includes('.'));
  if (namespaced.length > 0) {
    return namespaced.map((f) => {
      const name = f.name.slice(receiver.length + 1);
      return { label: name, kind: 'function', detail: f.signature, documentation: celDocumentation(f), insertText: `${name}($0)`, snippet: true, replace: partial.length };
    });
  }
  const out: CelSuggestion[] = [];
  const seen = new Set<string>();
  const field = (name: string, detail: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    // A name that is not an identifier (a header like X-Tenant) is read with brackets: vars["X-Tenant"].
    if (IDENT.test(name)) out.push({ label: name, kind: 'field', detail, insertText: name, replace: partial.length });
    else out.push({ label: name, kind: 'field', detail, insertText: `[${JSON.stringify(name)}]`, replace: partial.length + 1 });
  };
  const normalized = receiver.replace(/\?\./g, '.');
  if (normalized === 'vars') for (const v of scope?.vars ?? []) field(v.name, v.origin);
  if ((normalized === 'error' || normalized === 'vars.error') && (scope?.inErrorChain ?? true)) {
    field('message', 'what went wrong');
    field('step', 'path of the step that failed');
    field('status', 'HTTP status the failure calls for (409, 404, 502…), else 500');
  }
  const value = sampleValue(sample, normalized);
  if (value && typeof value === 'object' && !Array.isArray(value)) for (const k of Object.keys(value)) field(k, `in the sample: ${preview((value as Record<string, unknown>)[k])}`);
  const receiverType = value === undefined ? undefined : Array.isArray(value) ? 'list' : typeof value === 'string' ? 'string' : value && typeof value === 'object' ? 'map' : undefined;
  const methods = new Map<string, DesignCelFunction>();
  for (const f of functions) {
    if (f.kind !== 'method' || methods.has(f.name)) continue;
    if (receiverType && f.receiver !== receiverType && !(receiverType === 'map' && f.receiver === 'list')) continue;
    methods.set(f.name, f);
  }
  for (const f of methods.values()) out.push({ label: f.name, kind: 'method', detail: f.signature, documentation: celDocumentation(f), insertText: `${f.name}($0)`, snippet: true, replace: partial.length });
  return out;
}

/** Markdown for completion details and hover: what the function does and an example. */
export function celDocumentation(f: DesignCelFunction): string {
  return f.example ? `${f.description}\n\nExample: \`${f.example}\`` : f.description;
}

/** The sample's value at a path such as `vars.query` or `body.items[0]`; undefined when absent. */
export function sampleValue(sample: CelSample | undefined, path: string): unknown {
  if (!sample) return undefined;
  const parts = path.match(/[A-Za-z_]\w*|\[[^\]]*\]/g) ?? [];
  let value: unknown = { body: sample.body, vars: sample.vars, error: sample.error ?? undefined, correlationID: sample.correlationID };
  for (const part of parts) {
    if (value === null || typeof value !== 'object') return undefined;
    let key: string | number = part;
    if (part.startsWith('[')) {
      const inner = part.slice(1, -1).trim();
      try {
        key = JSON.parse(inner.replace(/^'(.*)'$/, '"$1"')) as string | number;
      } catch {
        return undefined;
      }
    }
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function preview(v: unknown): string {
  const text = JSON.stringify(v) ?? 'null';
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** True when the cursor is inside a string literal of the expression. */
function insideString(prefix: string): boolean {
  let quote: string | undefined;
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
  }
  return quote !== undefined;
}
