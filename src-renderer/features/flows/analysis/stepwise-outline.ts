import { isSeq, type Node } from 'yaml';
import { chainRegions, type ChainRegion } from './chain-region.ts';
import { definitionOutline, stepOutline } from './definition-outline.ts';
import type { FlowRegion } from './flow-region.ts';
import type { OutlineFlow, OutlineStep, Span } from './outline-types.ts';
import type { SpecIndex } from './spec-index.ts';
import { parseDefinition } from './yaml-nodes.ts';

const HEAD = 'flows:\n';
/** The path a remembered step is read at; replaced by the path it has where it is now. */
const HERE = '\u0000';

/**
 * A flow's outline put together from pieces read on their own: the flow without the lists of its
 * chains (its key, source and other settings), and each step of its `steps` and `onError` lists
 * from the step's own lines. A piece whose lines are as they were at the last reading is not read
 * again: an edit of a 200-step flow (a drop on the graph, a keystroke) reads the steps it changed,
 * not the flow. Each piece is read by the same outline as the whole file (definition-outline.ts);
 * stepwise-outline.test.ts checks the two agree on every example and every graph edit.
 */
export class StepwiseOutline {
  /** Each step's outline by its lines' text, spans from the step's first line, paths from HERE; null: not a step. */
  private steps = new Map<string, OutlineStep | null>();
  private head: { text: string; flow: OutlineFlow | undefined } | undefined;
  /** How many steps the last reading parsed (the others it remembered). */
  stepsRead = 0;

  constructor(private readonly specs: SpecIndex) {}

  /** The flow of a region in full, or undefined when its chains are not block lists found by indentation (read it whole then). */
  flow(text: string, region: FlowRegion): OutlineFlow | undefined {
    const chains = chainRegions(text, region);
    if (!chains || chains.length === 0) return undefined;
    // The flow with each chain's list cut out after its key but for its last item, which is kept
    // so that the flow ends where it ends in the file (how far the parser takes the flow over
    // comments after it depends on that item). Offsets at or past a cut move by what was cut there.
    const cuts: Array<{ at: number; length: number }> = [];
    let skeleton = '';
    let from = region.start;
    for (const c of chains) {
      const lastLine = text.lastIndexOf('\n', c.items[c.items.length - 1].start);
      skeleton += text.slice(from, c.keyLineEnd);
      cuts.push({ at: skeleton.length, length: lastLine - c.keyLineEnd });
      from = lastLine;
    }
    skeleton += text.slice(from, region.end);
    const head = this.headOf(skeleton);
    if (!head) return undefined;
    const place = (o: number): number => region.start + cuts.reduce((at, c) => (o >= c.at ? at + c.length : at), o);
    const placeSpan = (s: Span): Span => [place(s[0]), place(s[1])];
    const placeStep = (s: OutlineStep): OutlineStep => ({
      ...s,
      span: placeSpan(s.span),
      branches: s.branches.map((b) => ({ ...b, ...(b.span ? { span: placeSpan(b.span) } : {}), steps: b.steps.map(placeStep) })),
    });

    const used = new Map<string, OutlineStep | null>();
    this.stepsRead = 0;
    const lists: Partial<Record<ChainRegion['key'], OutlineStep[]>> = {};
    for (const c of chains) {
      // A step is remembered by its text from its dash on, and the column of that dash.
      const texts = c.items.map((it) => text.slice(it.start, it.end));
      if (!this.readMissing(c, texts, used)) return undefined;
      const chainPath = `flows.${head.name}.${c.key}`;
      lists[c.key] = texts.flatMap((t, i) => {
        const step = used.get(`${c.dashCol}|${t}`);
        return step ? [relocate(step, `${chainPath}[${i}]`, c.items[i].start)] : [];
      });
    }
    // Only what this reading used is kept: the next edit is of this text.
    this.steps = used;
    return {
      ...head,
      span: placeSpan(head.span),
      keySpan: placeSpan(head.keySpan),
      ...(head.source ? { source: { ...head.source, span: placeSpan(head.source.span) } } : {}),
      steps: lists.steps ?? head.steps.map(placeStep),
      onError: lists.onError ?? head.onError.map(placeStep),
    };
  }

  /** The flow without its lists, read once per text of it; spans from the flow's first line. Undefined when that does not read cleanly. */
  private headOf(skeleton: string): OutlineFlow | undefined {
    if (this.head?.text !== skeleton) {
      const doc = parseDefinition(HEAD + skeleton);
      const flow = doc.errors.length === 0 ? definitionOutline(doc, HEAD + skeleton, this.specs).flows[0] : undefined;
      this.head = { text: skeleton, flow: flow && shiftFlow(flow, -HEAD.length) };
    }
    return this.head.flow;
  }

  /**
   * Reads the steps not remembered, all of one chain in one parse (their texts joined after the
   * dashes' indentation are a list as they were in the file), into `used` with the remembered
   * ones. False when that list does not read as one item per text without errors.
   */
  private readMissing(chain: ChainRegion, texts: string[], used: Map<string, OutlineStep | null>): boolean {
    const unread = new Set<string>();
    for (const t of texts) {
      const key = `${chain.dashCol}|${t}`;
      if (used.has(key)) continue;
      const known = this.steps.get(key);
      if (known !== undefined) used.set(key, known);
      else unread.add(t);
    }
    if (unread.size === 0) return true;
    // Every text but the chain's last ends where the next item's dash goes; that one goes last.
    const indent = ' '.repeat(chain.dashCol);
    const before = `\n${indent}`;
    const missing = [...unread].sort((a, b) => Number(!a.endsWith(before)) - Number(!b.endsWith(before)));
    this.stepsRead += missing.length;
    const starts: number[] = [];
    let joined = indent;
    for (const t of missing) {
      starts.push(joined.length);
      joined += t;
    }
    const doc = parseDefinition(joined);
    if (doc.errors.length > 0 || !isSeq(doc.contents) || doc.contents.items.length !== missing.length) return false;
    const items = doc.contents.items as Array<Node | null>;
    for (let i = 0; i < missing.length; i++) {
      const node = items[i];
      const start = starts[i];
      if (node?.range && (node.range[0] < start || node.range[0] > start + missing[i].length)) return false;
      const step = node ? stepOutline(node, joined, this.specs, HERE) : undefined;
      used.set(`${chain.dashCol}|${missing[i]}`, step ? relocate(step, HERE, -start) : null);
    }
    return true;
  }
}

/** A step read at another path and place, moved to `path` (its own and its nested steps' paths) and `by` characters on. */
function relocate(step: OutlineStep, path: string, by: number): OutlineStep {
  const move = (p: string): string => (p.startsWith(HERE) ? path + p.slice(HERE.length) : p);
  const span = (s: Span): Span => [s[0] + by, s[1] + by];
  const at = (s: OutlineStep): OutlineStep => ({
    ...s,
    path: move(s.path),
    span: span(s.span),
    branches: s.branches.map((b) => ({ ...b, path: move(b.path), ...(b.span ? { span: span(b.span) } : {}), steps: b.steps.map(at) })),
  });
  return at(step);
}

/** A flow's spans `by` characters on. */
export function shiftFlow(flow: OutlineFlow, by: number): OutlineFlow {
  const step = (s: OutlineStep): OutlineStep => relocate(s, '', by);
  return {
    ...flow,
    span: [flow.span[0] + by, flow.span[1] + by],
    keySpan: [flow.keySpan[0] + by, flow.keySpan[1] + by],
    ...(flow.source ? { source: { ...flow.source, span: [flow.source.span[0] + by, flow.source.span[1] + by] as Span } } : {}),
    steps: flow.steps.map(step),
    onError: flow.onError.map(step),
  };
}
