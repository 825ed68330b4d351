import { Document, isCollection, isMap, isScalar, isSeq, parseDocument, type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { FlowEditError, keysOf, type DocKey } from './step-place.ts';
import { blankOnly, indentOf, isBlank, isComment, lineAt, lineEnd, lineStart, reindent, trimBack } from './yaml-text.ts';

/** Replace [start, end) of the text before the edit with `text`. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

/** One item of a block list and the lines it owns: comment lines right above it at its dash's column, and deeper comment lines right below. */
export interface ItemRegion {
  node: Node;
  /** Start of its first leading comment line, else of its dash's line. */
  start: number;
  /** Start of the line holding its dash. */
  dashLine: number;
  /** Just past the newline of its last line. */
  end: number;
  dashCol: number;
}

/** A list of steps (or of switch cases) as found in the document, or where it would go. */
export interface ChainAt {
  keys: DocKey[];
  /** The map the list is the value of a key of. */
  parent: YAMLMap | undefined;
  pair: Pair | undefined;
  seq: YAMLSeq | undefined;
  /** The items of a block list; empty for a flow list (`[]`, `[a, b]`) or no list. */
  items: ItemRegion[];
}

const NEW_TEXT_OPTIONS = { lineWidth: 0, flowCollectionPadding: false } as const;

/**
 * A definition's text with its parsed Document: the Document tells where each node is, the edits
 * splice only the lines of the nodes they change. New nodes are written in the file's own style:
 * its indentation step and whether list dashes sit under their key or two columns in.
 */
export class DefinitionDocument {
  readonly doc: Document.Parsed;
  /** Columns between a key and its nested keys. */
  readonly step: number;
  /** Columns between a key and the dashes of its list (2 for `steps:\n  - a`, 0 for `steps:\n- a`). */
  readonly seqIndent: number;

  constructor(readonly text: string) {
    this.doc = parsedDefinition(text);
    const broken = this.doc.errors[0];
    if (broken) {
      // The parse keeps no line positions (prettyErrors off, for speed): say where from the offset.
      const at = broken.pos[0];
      const line = text.slice(0, at).split('\n').length;
      const where = `line ${line}, column ${at - lineStart(text, at) + 1}`;
      throw new FlowEditError(`the file does not parse as YAML at ${where} (${broken.message.split('\n')[0]}); fix the text there first`);
    }
    [this.step, this.seqIndent] = this.style();
  }

  node(keys: DocKey[]): unknown {
    return this.doc.getIn(keys, true);
  }

  /** The map at `keys`, or why not. */
  map(keys: DocKey[], what: string): YAMLMap {
    const n = this.node(keys);
    if (!isMap(n)) throw new FlowEditError(`${what} is not in the file`);
    return n;
  }

  /** The list at a chain path (`flows.f.steps`) or where it would be. */
  chain(path: string): ChainAt {
    return this.chainAt(keysOf(path));
  }

  chainAt(keys: DocKey[]): ChainAt {
    const parentNode = this.node(keys.slice(0, -1));
    const parent = isMap(parentNode) ? parentNode : undefined;
    const key = keys[keys.length - 1];
    const pair = parent?.items.find((p) => keyText(p) === key);
    const seq = isSeq(pair?.value) ? pair.value : undefined;
    const items = seq && !seq.flow ? seq.items.map((item) => this.itemRegion(item as Node)) : [];
    return { keys, parent, pair, seq, items };
  }

  /** The column a node starts at. */
  column(offset: number): number {
    return offset - lineStart(this.text, offset);
  }

  /** The lines of a block list item, with the comments that belong to it. */
  itemRegion(node: Node): ItemRegion {
    const t = this.text;
    if (!node.range) throw new FlowEditError('a list item has no place in the text');
    // The dash precedes the item's first key, on its line or alone on a line above it.
    let dash = node.range[0] - 1;
    while (dash >= 0 && /\s/.test(t[dash])) dash--;
    if (t[dash] !== '-') dash = node.range[0];
    const dashLine = lineStart(t, dash);
    const dashCol = dash - dashLine;
    const contentEnd = trimBack(t, isCollection(node) && !node.flow ? node.range[1] : node.range[1], dash + 1);
    let end = lineEnd(t, Math.max(dash, contentEnd - 1));
    // Deeper comment lines right below (a commented-out setting) stay with it.
    while (end < t.length) {
      const line = lineAt(t, end);
      if (isBlank(line) || !isComment(line) || indentOf(line) <= dashCol) break;
      end = lineEnd(t, end);
    }
    let start = dashLine;
    // Comment lines right above at the dash's column say what the item is for.
    while (start > 0) {
      const above = lineStart(t, start - 1);
      const line = lineAt(t, above);
      if (!isComment(line) || indentOf(line) !== dashCol) break;
      start = above;
    }
    return { node, start, dashLine, end, dashCol };
  }

  /** The text of items a..b (leading comments and the blank lines between them included) moved so their dashes sit at column 0. */
  itemsText(items: readonly ItemRegion[]): string {
    const first = items[0];
    const last = items[items.length - 1];
    return reindent(this.text.slice(first.start, last.end).replace(/\n$/, ''), -first.dashCol);
  }

  /** Blank lines between two neighbouring items, to put between new ones the same way. */
  separator(items: readonly ItemRegion[]): string {
    return items.length > 1 ? blankOnly(this.text.slice(items[0].end, items[1].start)) : '';
  }

  /**
   * Splices inserting `block` (items with their dashes at column 0, no final newline) into a chain
   * at `index`, creating the list (or its key) when there is none.
   */
  insertItems(chain: ChainAt, index: number, block: string, what = 'the list'): Splice[] {
    const { items } = chain;
    const t = this.text;
    if (items.length > 0) {
      if (index < 0 || index > items.length) throw new FlowEditError(`${what} has ${items.length} items; there is no place ${index}`);
      const sep = this.separator(items);
      const col = items[0].dashCol;
      const moved = reindent(block, col);
      if (index < items.length) {
        return [{ start: items[index].start, end: items[index].start, text: `${moved}\n${sep}` }];
      }
      const at = items[items.length - 1].end;
      const newline = at === t.length && !t.endsWith('\n') ? '\n' : '';
      return [{ start: at, end: at, text: `${newline}${sep}${moved}${newline ? '' : '\n'}` }];
    }
    const values = chain.seq ? (chain.seq.toJSON() as unknown[]) : [];
    if (index < 0 || index > values.length) throw new FlowEditError(`${what} has ${values.length} items; there is no place ${index}`);
    if (values.length > 0) {
      // An inline list ([a, b]) becomes a block list holding its items and the new one.
      const before = values.slice(0, index).map((v) => itemText(v));
      const after = values.slice(index).map((v) => itemText(v));
      return this.setList(chain, [...before, block, ...after].join('\n'));
    }
    return this.setList(chain, block);
  }

  /** Splices making the chain's value the block list `block` (dashes at column 0). */
  setList(chain: ChainAt, block: string): Splice[] {
    const t = this.text;
    const key = chain.keys[chain.keys.length - 1];
    if (chain.pair) {
      const keyNode = chain.pair.key as Node;
      const keyCol = this.column(keyNode.range![0]);
      const colon = t.indexOf(':', keyNode.range![1]);
      const value = chain.pair.value as Node | null;
      const valueEnd = value?.range ? (isCollection(value) && !value.flow ? trimBack(t, value.range[1]) : value.range[1]) : colon + 1;
      const end = Math.max(colon + 1, valueEnd);
      // A comment after `steps: []` is about the key: it stays on the key's line, not after the new list's last line.
      const rest = lineAt(t, end);
      const comment = /^\s+#/.test(rest) && !(isCollection(value) && !value.flow) ? rest : '';
      return [{ start: colon + 1, end: end + comment.length, text: `${comment}\n${reindent(block, keyCol + this.seqIndent)}` }];
    }
    if (!chain.parent) throw new FlowEditError(`there is no place for ${String(key)} in the file`);
    return this.addPair(chain.parent, String(key), `\n${reindent(block, this.seqIndent)}`, block);
  }

  /**
   * Splices adding `key` to a map: on a new line after its last entry (a block map; `valueText`
   * follows the colon, its lines relative to the key's column), or inside the braces (a flow map).
   */
  addPair(map: YAMLMap, key: string, valueText: string, flowBlock?: string): Splice[] {
    const t = this.text;
    if (map.flow) {
      const close = t.lastIndexOf('}', map.range![1]);
      const inline = flowBlock !== undefined ? flowList(flowBlock) : valueText.trim();
      const sep = map.items.length > 0 ? ', ' : '';
      const at = trimBack(t, close);
      return [{ start: at, end: at, text: `${sep}${key}: ${inline}` }];
    }
    const last = map.items[map.items.length - 1];
    if (!last) throw new FlowEditError(`cannot add ${key} to an empty map`);
    const keyCol = this.column((last.key as Node).range![0]);
    const end = this.pairEnd(last);
    const newline = end === t.length && !t.endsWith('\n') ? '\n' : '';
    const lines = reindent(`${key}:${valueText}`, keyCol);
    return [{ start: end, end, text: `${newline}${lines}${newline ? '' : '\n'}` }];
  }

  /** Just past the newline of a block map entry's last line. */
  pairEnd(pair: Pair): number {
    const value = pair.value as Node | null;
    const keyNode = pair.key as Node;
    const last = value?.range && value.range[1] > keyNode.range![1] ? value.range[1] : keyNode.range![1];
    return lineEnd(this.text, Math.max(keyNode.range![0], trimBack(this.text, last) - 1));
  }

  /** How the file indents: the step from `flows:` to its first flow, and where its first block list's dashes sit. */
  private style(): [number, number] {
    let step = 2;
    let seqIndent = 2;
    const flows = this.node(['flows']);
    if (isMap(flows) && flows.items[0]) {
      const first = this.column((flows.items[0].key as Node).range![0]);
      if (first > 0) step = first;
    }
    let found = false;
    const visit = (n: unknown, keyCol: number | undefined): void => {
      if (found) return;
      if (isMap(n) && !n.flow) for (const p of n.items) visit(p.value, isScalar(p.key) && p.key.range ? this.column(p.key.range[0]) : undefined);
      else if (isSeq(n) && !n.flow && n.items[0] && keyCol !== undefined) {
        const region = this.itemRegion(n.items[0] as Node);
        if (lineAt(this.text, region.dashLine).trimStart().startsWith('-')) {
          seqIndent = Math.max(0, region.dashCol - keyCol);
          found = true;
        }
      }
    };
    visit(this.doc.contents, undefined);
    return [step, seqIndent];
  }
}

let lastParsed: { text: string; doc: Document.Parsed } | undefined;

/**
 * A definition's text parsed as the edits read it, the last one kept: the graph's settings form
 * reads the text an edit made, and the next edit starts from that same text, so on a long file
 * the parse is not done twice. Callers only read the document, never change it.
 */
export function parsedDefinition(text: string): Document.Parsed {
  if (lastParsed?.text !== text) lastParsed = { text, doc: parseDocument(text, { uniqueKeys: false, prettyErrors: false }) };
  return lastParsed.doc;
}

export function keyText(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key ?? '');
}

/** A new value written as YAML (new text: the user's own text is never re-serialised). */
export function yamlText(value: unknown, flow = false): string {
  const doc = new Document(value);
  if (flow && isCollection(doc.contents)) doc.contents.flow = true;
  return doc.toString(NEW_TEXT_OPTIONS).replace(/\n$/, '');
}

/** A new list item, dash at column 0, its other lines two columns in. */
export function itemText(value: unknown): string {
  return yamlText([value]);
}

/** A block list (dashes at column 0) written inline, for a key added to an inline map. */
function flowList(block: string): string {
  const values = parseDocument(block).toJSON() as unknown;
  return yamlText(values, true);
}
