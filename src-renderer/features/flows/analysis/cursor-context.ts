import { isMap, isScalar, Scalar, type Document, type Node, type Pair } from 'yaml';
import type { DesignSetting, DesignSettings } from '../../../../shared/flow-design.ts';
import type { SpecIndex } from './spec-index.ts';
import { contains, keyOf, mapPairs, pairSpan, scalarText, seqItems, spanOf, type Span } from './yaml-nodes.ts';

/** A CEL expression the cursor is in. */
export interface CelAtCursor {
  /** The expression's text (the scalar's value). */
  expression: string;
  /** Expression text before the cursor, as written (quotes unescaped), for completion. */
  prefix: string;
  /** Where the value is in the document, quotes included. */
  span: Span;
}

/** What the cursor is in, in the definition's own terms. */
export interface CursorContext {
  /** Setting path at the cursor, e.g. `flows.orders.steps[1].filter.condition`; '' at the top. */
  path: string;
  flow?: string;
  /** The innermost step the cursor is in, e.g. `flows.orders.steps[1]`. */
  stepPath?: string;
  /** The innermost list of steps the cursor is in, with its span and the column of its dashes. */
  chain?: { path: string; span?: Span; indent?: number };
  /** The setting whose key or value the cursor is on. */
  setting?: DesignSetting;
  onKey: boolean;
  cel?: CelAtCursor;
}

/**
 * Finds, for an offset in a definition file, the setting path and spec under the cursor, the
 * flow and step it belongs to, and the CEL expression when the cursor is inside one.
 */
export function cursorContext(doc: Document.Parsed, text: string, specs: SpecIndex, offset: number): CursorContext {
  const walker = new ContextWalker(text, specs, offset);
  walker.root(doc.contents);
  return walker.ctx;
}

class ContextWalker {
  readonly ctx: CursorContext = { path: '', onKey: false };

  constructor(
    private readonly text: string,
    private readonly specs: SpecIndex,
    private readonly offset: number,
  ) {}

  root(node: unknown): void {
    const pair = this.pairAt(node);
    if (!pair) return;
    const key = keyOf(pair);
    if (this.onKey(pair, key)) return;
    const entries = this.pairAt(pair.value);
    if (!entries) return;
    const name = keyOf(entries);
    const path = `${key}.${name}`;
    if (key === 'flows') this.ctx.flow = name;
    if (this.onKey(entries, path)) return;
    if (key === 'flows') {
      this.flow(entries.value, path);
    } else if (key === 'connectors') {
      this.settings(entries.value, this.specs.connectors.get(typeIn(entries.value))?.settings, path, ['type']);
    } else if (key === 'env') {
      this.settings(entries.value, this.specs.envSettings, path);
    }
  }

  private flow(node: unknown, path: string): void {
    const pair = this.pairAt(node);
    if (!pair || keyOf(pair) !== 'source') return this.settings(node, this.specs.flowSettings, path);
    if (this.onKey(pair, `${path}.source`)) return;
    this.settings(pair.value, this.specs.sources.get(typeIn(pair.value))?.settings, `${path}.source`, ['type']);
  }

  private settings(node: unknown, spec: DesignSettings | undefined, path: string, own: string[] = []): void {
    const pair = this.pairAt(node);
    if (!pair) return;
    const key = keyOf(pair);
    const setting = own.includes(key) ? undefined : spec?.[key];
    this.ctx.setting = setting;
    if (this.onKey(pair, `${path}.${key}`)) return;
    if (setting) this.value(pair.value as Node | null, setting, `${path}.${key}`);
    else this.ctx.path = `${path}.${key}`;
  }

  private value(node: Node | null, setting: DesignSetting, path: string): void {
    this.ctx.path = path;
    this.ctx.setting = setting;
    switch (setting.type) {
      case 'cel':
        if ((node === null || isScalar(node)) && (node === null || typeof node.value === 'string' || node.value === null)) this.cel(node);
        return;
      case 'object':
        return this.settings(node, setting.fields, path);
      case 'map': {
        const pair = this.pairAt(node);
        if (!pair || !setting.values || this.onKey(pair, `${path}.${keyOf(pair)}`)) return;
        return this.value(pair.value as Node | null, setting.values, `${path}.${keyOf(pair)}`);
      }
      case 'list': {
        const i = seqItems(node).findIndex((item) => contains(this.reach(spanOf(item, this.text)), this.offset));
        if (i >= 0 && setting.items) this.value(seqItems(node)[i], setting.items, `${path}[${i}]`);
        return;
      }
      case 'steps':
        return this.chain(node, path);
      default:
        return;
    }
  }

  private chain(node: Node | null, path: string): void {
    const items = seqItems(node);
    const first = items.find((i) => i?.range);
    this.ctx.chain = { path, span: spanOf(node, this.text), indent: first ? dashColumn(this.text, first.range![0]) : undefined };
    const i = items.findIndex((item) => contains(this.reach(spanOf(item, this.text)), this.offset));
    if (i < 0) return;
    const stepPath = `${path}[${i}]`;
    this.ctx.stepPath = stepPath;
    this.ctx.path = stepPath;
    this.ctx.setting = undefined;
    const pair = this.pairAt(items[i]);
    if (!pair) return;
    const key = keyOf(pair);
    if (key === 'name') {
      this.ctx.path = `${stepPath}.name`;
      this.ctx.onKey = this.onKeyOnly(pair);
      return;
    }
    if (this.onKey(pair, stepPath)) return;
    this.settings(pair.value, this.specs.blocks.get(key)?.settings, `${stepPath}.${key}`);
  }

  private cel(node: Scalar | null): void {
    const span: Span = node?.range ? [node.range[0], node.range[1]] : [this.offset, this.offset];
    const start = valueStart(this.text, node, span);
    const raw = this.text.slice(start, Math.max(start, this.offset));
    const prefix = node?.type === Scalar.QUOTE_SINGLE ? raw.replace(/''/g, "'") : node?.type === Scalar.QUOTE_DOUBLE ? raw.replace(/\\"/g, '"') : raw;
    this.ctx.cel = { expression: node ? (scalarText(node) ?? '') : '', prefix, span };
  }

  /** The pair of a mapping whose key or value holds the offset. */
  private pairAt(node: unknown): Pair | undefined {
    if (!isMap(node)) return undefined;
    return mapPairs(node).find((p) => contains(this.reach(pairSpan(p, this.text)), this.offset));
  }

  /**
   * A span with the blanks after it on its line: the cursor after `a > ` is still in that
   * expression, and after `Flow number 4 ` still in that description, as the person typing
   * the space is.
   */
  private reach(span: Span | undefined): Span | undefined {
    if (!span) return undefined;
    let end = span[1];
    while (this.text[end] === ' ' || this.text[end] === '\t') end++;
    return [span[0], end];
  }

  private onKeyOnly(pair: Pair): boolean {
    return contains(spanOf(pair.key as Node, this.text), this.offset) && !this.inValue(pair);
  }

  /** True (and the context says so) when the cursor is on the key itself rather than its value. */
  private onKey(pair: Pair, path: string): boolean {
    if (!this.onKeyOnly(pair)) return false;
    this.ctx.path = path;
    this.ctx.onKey = true;
    return true;
  }

  private inValue(pair: Pair): boolean {
    const v = spanOf(pair.value as Node);
    return v !== undefined && this.offset >= v[0];
  }
}

function typeIn(node: unknown): string {
  return scalarText(mapPairs(node).find((p) => keyOf(p) === 'type')?.value) ?? '';
}

/** 0-based column of the `- ` before a list item that starts at `offset`. */
function dashColumn(text: string, offset: number): number {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const dash = text.lastIndexOf('-', offset - 1);
  return (dash >= lineStart ? dash : offset - 2) - lineStart;
}

/** Where a scalar's text starts: after an opening quote, or on the line after a block header. */
function valueStart(text: string, node: Scalar | null, span: Span): number {
  if (!node) return span[0];
  if (node.type === Scalar.QUOTE_SINGLE || node.type === Scalar.QUOTE_DOUBLE) return span[0] + 1;
  if (node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED) {
    const lineEnd = text.indexOf('\n', span[0]);
    if (lineEnd < 0) return span[1];
    let i = lineEnd + 1;
    while (i < span[1] && (text[i] === ' ' || text[i] === '\t')) i++;
    return i;
  }
  return span[0];
}
