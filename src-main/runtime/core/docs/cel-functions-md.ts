import { CEL_FUNCTIONS, CEL_LIBRARY_TITLES, type CelLibrary } from '../../../../shared/cel-functions.ts';

/**
 * The CEL function reference in docs/flows.md: a generated section between two markers, written
 * from shared/cel-functions.ts by `npm run gen`; the rest of flows.md is edited by hand.
 */
export const CEL_REFERENCE_BEGIN = '<!-- BEGIN CEL function reference: generated from shared/cel-functions.ts by `npm run gen`; do not edit by hand. -->';
export const CEL_REFERENCE_END = '<!-- END CEL function reference -->';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string): string => (text.includes('`') ? `\`\` ${cell(text)} \`\`` : `\`${cell(text)}\``);

function readable(overload: string): string {
  return overload
    .replace(/google\.protobuf\.Timestamp/g, 'timestamp')
    .replace(/google\.protobuf\.Duration/g, 'duration')
    .replace(/\bast\b/g, 'expr')
    .replace(/\): /, ') → ')
    .replace(/^(dyn\.\?field|dyn\[\?dyn\]): /, '$1 → ');
}

/** The generated section, markers included. */
export function celReferenceMarkdown(): string {
  const out: string[] = [
    CEL_REFERENCE_BEGIN,
    '',
    '### CEL function reference',
    '',
    'Beyond the CEL standard library (`size`, `has`, `int`, `string`, `matches`, `startsWith`, `map`, `filter`, `all`, `exists`, …),',
    'every CEL setting can use the cel-go extension libraries below. In signatures, `expr` is an expression',
    'evaluated by the macro (an iteration variable or a body), `...` repeats the argument before it.',
    '',
  ];
  const libraries = [...new Set(CEL_FUNCTIONS.map((f) => f.library))] as CelLibrary[];
  for (const library of libraries) {
    out.push(`#### ${CEL_LIBRARY_TITLES[library]}`, '', '| Function | What | Example |', '|---|---|---|');
    for (const f of CEL_FUNCTIONS.filter((d) => d.library === library)) {
      const signatures = f.overloads.map((o) => code(readable(o))).join('<br>');
      out.push(`| ${signatures} | ${cell(f.description)} | ${code(f.example.expression)} → ${code(f.example.result)} |`);
    }
    out.push('');
  }
  out.push(CEL_REFERENCE_END);
  return out.join('\n');
}

/** flows.md with its generated section replaced (or added at the end when the markers are missing). */
export function flowsMarkdownWithReference(current: string): string {
  const begin = current.indexOf(CEL_REFERENCE_BEGIN);
  const end = current.indexOf(CEL_REFERENCE_END);
  if (begin < 0 || end < begin) return `${current.replace(/\n*$/, '\n\n')}${celReferenceMarkdown()}\n`;
  return current.slice(0, begin) + celReferenceMarkdown() + current.slice(end + CEL_REFERENCE_END.length);
}
