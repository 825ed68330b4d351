import { Document as YamlDocument, type Document } from 'yaml';
import type { DesignComponent, DesignSetting, DesignSettings } from '../../../../shared/flow-design.ts';
import { cursorContext } from './cursor-context.ts';
import { definitionOutline } from './definition-outline.ts';
import type { DefinitionOutline } from './outline-types.ts';
import type { SpecIndex } from './spec-index.ts';
import { getPair, mapPairs, pairSpan, spanOf } from './yaml-nodes.ts';

/**
 * Where to insert what: `text` replaces [offset, replaceTo) (nothing when replaceTo is absent);
 * the cursor then goes to `offset + cursor`.
 */
export interface SnippetInsertion {
  offset: number;
  replaceTo?: number;
  text: string;
  cursor: number;
}

export type SnippetResult = { ok: true; insertion: SnippetInsertion } | { ok: false; reason: string };

/** Names the snippet can refer to so that it loads: declared connectors and flows. */
interface Known {
  outline: DefinitionOutline;
  flow?: string;
}

const MAX_OPTIONAL = 2;

/** A value of a setting that loads: an existing connector or flow name, the example, the default. */
function valueFor(setting: DesignSetting, known: Known): unknown {
  if (setting.connectorType) {
    const existing = known.outline.connectors.find((c) => c.type === setting.connectorType);
    if (existing) return existing.name;
  }
  if (setting.flowRef) {
    const other = known.outline.flows.find((f) => f.name !== known.flow);
    if (other) return other.name;
  }
  if (setting.example !== undefined) return setting.example;
  if (setting.default !== undefined) return setting.default;
  switch (setting.type) {
    case 'string':
      return setting.enum?.[0] ?? (setting.connectorType ? setting.connectorType : 'TODO');
    case 'int':
    case 'number':
      return setting.minimum ?? 1;
    case 'boolean':
      return false;
    case 'duration':
      return '1s';
    case 'cel':
      return 'true';
    case 'list':
      return setting.items?.type === 'object' ? [settingsFor(setting.items.fields ?? {}, known)] : [];
    case 'object':
      return settingsFor(setting.fields ?? {}, known);
    case 'map':
      return {};
    case 'steps':
      return [];
    default:
      return null;
  }
}

/** Required settings, plus up to two optional plain ones that have an example (a path, a name). */
export function settingsFor(spec: DesignSettings, known: Known): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let optional = 0;
  for (const [name, s] of Object.entries(spec)) {
    if (s.hidden) continue;
    if (s.required) out[name] = valueFor(s, known);
    else if (s.example !== undefined && (s.type === 'string' || s.type === 'duration') && !s.connectorType && optional < MAX_OPTIONAL) {
      out[name] = s.example;
      optional++;
    }
  }
  return out;
}

function yamlText(value: unknown): string {
  return new YamlDocument(value).toString({ lineWidth: 0, flowCollectionPadding: false }).replace(/\n$/, '');
}

function indentLines(text: string, indent: number): string {
  const pad = ' '.repeat(indent);
  return text
    .split('\n')
    .map((l) => (l ? pad + l : l))
    .join('\n');
}

/** The snippet of a component as written at column `indent` (0-based), without a final newline. */
export function componentSnippet(component: DesignComponent, known: Known, indent: number): string {
  const settings = settingsFor(component.settings, known);
  if (component.kind === 'block') return indentLines(yamlText([{ [component.type]: settings }]), indent);
  const typed = { type: component.type, ...settingsFor(component.settings, known) };
  if ('connector' in typed && component.kind === 'source') delete (typed as Record<string, unknown>).connector;
  if (component.kind === 'source') return indentLines(yamlText({ source: typed }), indent);
  return indentLines(yamlText({ [freshName(component.type, known.outline)]: typed }), indent);
}

function freshName(type: string, outline: DefinitionOutline): string {
  const base = type.replace(/[^A-Za-z0-9]+/g, '-');
  let name = base;
  for (let i = 2; outline.connectors.some((c) => c.name === name); i++) name = `${base}-${i}`;
  return name;
}

/**
 * Where and what the palette inserts for a component at the cursor: a block becomes the next
 * step after the one under the cursor (at that list's indentation), a source goes into the
 * flow under the cursor, a connector joins `connectors:` (created when missing).
 */
export function snippetInsertion(doc: Document.Parsed, text: string, specs: SpecIndex, offset: number, component: DesignComponent): SnippetResult {
  const outline = definitionOutline(doc, text, specs);
  const ctx = cursorContext(doc, text, specs, offset);
  const known: Known = { outline, flow: ctx.flow };
  if (component.kind === 'block') {
    const chainIndent = ctx.chain?.indent;
    const empty = ctx.chain?.span && text.slice(ctx.chain.span[0], ctx.chain.span[1]).replace(/\s/g, '') === '[]' ? ctx.chain.span : undefined;
    if (empty) {
      // `steps: []` becomes a block list holding the snippet, one level deeper than its key.
      const lineStart = text.lastIndexOf('\n', empty[0] - 1) + 1;
      const keyIndent = text.slice(lineStart).search(/\S/);
      const insert = `\n${componentSnippet(component, known, keyIndent + 2)}`;
      const start = text[empty[0] - 1] === ' ' ? empty[0] - 1 : empty[0];
      return { ok: true, insertion: { offset: start, replaceTo: empty[1], text: insert, cursor: insert.length } };
    }
    if (ctx.chain && chainIndent !== undefined) {
      const step = ctx.stepPath ? stepSpan(doc, text, ctx.chain.path, ctx.stepPath) : undefined;
      const after = step ?? ctx.chain.span;
      if (after) return { ok: true, insertion: afterLine(text, after[1], componentSnippet(component, known, chainIndent)) };
    }
    return { ok: true, insertion: atCursorLine(text, offset, (indent) => componentSnippet(component, known, indent)) };
  }
  if (component.kind === 'source') {
    const flow = outline.flows.find((f) => f.name === ctx.flow);
    if (!flow) return { ok: false, reason: 'put the cursor in a flow to give it a source' };
    if (flow.source) return { ok: false, reason: `flow "${flow.name}" already has a source; a flow has one` };
    const keyColumn = flow.keySpan[0] - (text.lastIndexOf('\n', flow.keySpan[0] - 1) + 1);
    return { ok: true, insertion: afterLine(text, flow.keySpan[1], componentSnippet(component, known, keyColumn + 2)) };
  }
  const connectors = getPair(doc.contents, 'connectors');
  const entries = mapPairs(connectors?.value);
  if (connectors && entries.length > 0) {
    const first = spanOf(entries[0].key as never)!;
    const indent = first[0] - (text.lastIndexOf('\n', first[0] - 1) + 1);
    const lastEnd = Math.max(...entries.map((p) => pairSpan(p, text)?.[1] ?? 0));
    return { ok: true, insertion: afterLine(text, lastEnd, componentSnippet(component, known, indent)) };
  }
  if (connectors) {
    const keyEnd = spanOf(connectors.key as never)![1];
    const lineEnd = endOfLine(text, keyEnd);
    // `connectors:` with nothing (or `{}`) after it: replace the rest of that line.
    const insertion = `connectors:\n${componentSnippet(component, known, 2)}`;
    const start = spanOf(connectors.key as never)![0];
    return { ok: true, insertion: { offset: start, replaceTo: lineEnd, text: insertion, cursor: insertion.length } };
  }
  const top = `connectors:\n${componentSnippet(component, known, 2)}\n`;
  return { ok: true, insertion: { offset: 0, text: top, cursor: top.length - 1 } };
}

function stepSpan(doc: Document.Parsed, text: string, chainPath: string, stepPath: string): [number, number] | undefined {
  const index = /^\[(\d+)\]/.exec(stepPath.slice(chainPath.length))?.[1];
  if (index === undefined) return undefined;
  const chain = nodeAtPath(doc, chainPath);
  const item = (chain as { items?: unknown[] } | undefined)?.items?.[Number(index)];
  return spanOf(item as never, text);
}

/** The node at a setting path such as `flows.f.steps[0].switch.cases[1].steps`. */
function nodeAtPath(doc: Document.Parsed, path: string): unknown {
  let node: unknown = doc.contents;
  for (const part of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (part.startsWith('[')) node = (node as { items?: unknown[] } | undefined)?.items?.[Number(part.slice(1, -1))];
    else node = getPair(node, part)?.value;
    if (node === undefined) return undefined;
  }
  return node;
}

function endOfLine(text: string, offset: number): number {
  const i = text.indexOf('\n', Math.max(0, offset - 1));
  return i < 0 ? text.length : i;
}

/** Inserts the snippet on a new line after the line where `offset` lies (the end of a node). */
function afterLine(text: string, nodeEnd: number, snippet: string): SnippetInsertion {
  // A node's end may be just past its newline; step back so the snippet follows its last line.
  const end = nodeEnd > 0 && text[nodeEnd - 1] === '\n' ? nodeEnd - 1 : nodeEnd;
  const lineEnd = endOfLine(text, end + 1);
  const insert = `\n${snippet}`;
  return { offset: lineEnd, text: insert, cursor: insert.length };
}

/** Inserts at the cursor's line: a blank line is used as is, else the snippet follows the line. */
function atCursorLine(text: string, offset: number, snippet: (indent: number) => string): SnippetInsertion {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = endOfLine(text, offset + 1);
  const line = text.slice(lineStart, lineEnd);
  const indent = line.length - line.trimStart().length;
  if (line.trim() === '') {
    const s = snippet(indent);
    return { offset: lineStart, replaceTo: lineEnd, text: s, cursor: s.length };
  }
  const insert = `\n${snippet(indent)}`;
  return { offset: lineEnd, text: insert, cursor: insert.length };
}
