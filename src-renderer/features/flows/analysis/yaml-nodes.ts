import { isMap, isScalar, isSeq, parseDocument, type Document, type Node, type Pair, type YAMLMap } from 'yaml';

/** A stretch of the document as character offsets: [start, end). */
export type Span = [start: number, end: number];

/** Parses like the loader does (YAML 1.2, dates recognised so they can be pointed at). */
export function parseDefinition(text: string): Document.Parsed {
  return parseDocument(text, { customTags: ['timestamp'], uniqueKeys: false, prettyErrors: false });
}

export function keyOf(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key ?? '');
}

/**
 * Where a node is. With the text, trailing line breaks are left out: a block node's range runs
 * to the start of the next line, which is not inside it for a cursor. Trailing spaces stay: a
 * cursor after `condition: ` is in that setting.
 */
export function spanOf(node: Node | null | undefined, text?: string): Span | undefined {
  if (!node?.range) return undefined;
  let end = node.range[1];
  if (text !== undefined) while (end > node.range[0] && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
  return [node.range[0], end];
}

/** The span of a pair from its key to the end of its value. */
export function pairSpan(pair: Pair, text?: string): Span | undefined {
  const key = spanOf(pair.key as Node, text);
  if (!key) return undefined;
  const value = spanOf(pair.value as Node, text);
  return [key[0], Math.max(key[1], value?.[1] ?? key[1])];
}

export function mapPairs(node: unknown): Pair[] {
  return isMap(node) ? (node as YAMLMap).items : [];
}

export function seqItems(node: unknown): Node[] {
  return isSeq(node) ? (node.items as Node[]) : [];
}

export function getPair(node: unknown, key: string): Pair | undefined {
  return mapPairs(node).find((p) => keyOf(p) === key);
}

/** A scalar's value as text, for labels; structures and nulls give undefined. */
export function scalarText(node: unknown): string | undefined {
  if (!isScalar(node) || node.value === null || node.value === undefined) return undefined;
  return node.value instanceof Date ? node.source ?? node.value.toISOString() : String(node.value);
}

export function contains(span: Span | undefined, offset: number): boolean {
  return span !== undefined && offset >= span[0] && offset <= span[1];
}

export function clip(text: string, max = 48): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
