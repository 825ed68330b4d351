import { createCelEnvironment, fromCel, type CelActivation, type CelEnvironment, type CompiledCel } from '../../core/cel.ts';
import { isRawContent, toSnapshot } from '../../core/message.ts';

/**
 * A text template: literal text with `{{ expression }}` holes, each a CEL expression over the
 * names it is rendered with (`body`, `vars`, … for a message). Compiled once per resource.
 * Values render as strings verbatim, null as nothing, anything else as compact JSON.
 */
export interface CompiledTemplate {
  name: string;
  render(activation: CelActivation): string;
}

// Templates get their own environment: no secret() or templateResource() inside a template.
// Made on the first template compiled: a CEL environment is some 8 ms of a start that uses none.
let cel: CelEnvironment | undefined;

export function compileTemplate(name: string, text: string): CompiledTemplate {
  const parts: Array<string | { cel: CompiledCel; line: number }> = [];
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('{{', at);
    if (open < 0) {
      parts.push(text.slice(at));
      break;
    }
    if (open > at) parts.push(text.slice(at, open));
    const close = text.indexOf('}}', open + 2);
    if (close < 0) throw new Error(`template ${name}:${lineOf(text, open)}: "{{" is never closed with "}}"`);
    const source = text.slice(open + 2, close).trim();
    if (source === '') throw new Error(`template ${name}:${lineOf(text, open)}: empty {{ }}; write an expression such as {{ body.name }}`);
    try {
      parts.push({ cel: (cel ??= createCelEnvironment()).compile(source), line: lineOf(text, open) });
    } catch (err) {
      throw new Error(`template ${name}:${lineOf(text, open)}: {{ ${source} }}: ${(err as Error).message}`);
    }
    at = close + 2;
  }
  return {
    name,
    render(activation) {
      let out = '';
      for (const p of parts) {
        if (typeof p === 'string') {
          out += p;
          continue;
        }
        try {
          out += show(p.cel.evaluate(activation));
        } catch (err) {
          // Where, not what: a failed flow answers this to whoever sent the message, so the template's text stays out.
          throw new Error(`template ${name}:${p.line}: ${(err as Error).message}`);
        }
      }
      return out;
    },
  };
}

/** The names a template sees when a CEL call hands it a map: its keys, as JSON values. */
export function activationFromMap(data: unknown): CelActivation {
  const value = fromCel(data);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as CelActivation) : {};
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isRawContent(value)) return typeof value.rawData === 'string' ? value.rawData : Buffer.from(value.rawData).toString('utf8');
  return JSON.stringify(toSnapshot(value));
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
