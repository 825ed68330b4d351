import type { FlowRegion } from './flow-region.ts';

/** One of a flow's own chains (`steps`, `onError`) written as a block list, as offsets into the text. */
export interface ChainRegion {
  key: 'steps' | 'onError';
  /** Where the chain's key line ends (its newline): the list's lines follow. */
  keyLineEnd: number;
  /** The column of the list's dashes. */
  dashCol: number;
  /**
   * Each item: from its dash to the next item's dash (the last: to the key after the chain, or the
   * flow's end), so that an item's text holds what the parser reads up to the token after it (a
   * step ending in a nested list reaches over the comments after it to there).
   */
  items: Array<{ start: number; end: number }>;
}

const CHAIN_KEY = /^(steps|onError):(?:\s+#.*)?\s*$/;
/** The key of a chain however written (quoted, inline value): a second one makes the layout not plain. */
const CHAIN_NAME = /^(["']?)(steps|onError)\1\s*:/;

/**
 * The block-list chains of one flow found by indentation alone, as flowRegions finds the flows:
 * a `steps:` or `onError:` key of the flow's own map with a `- ` list on the lines below it, and
 * where each item of the list starts. A chain written otherwise (`steps: []`, `steps: [a, b]`) is
 * not listed; undefined when the layout is not plain enough to tell (a chain's key twice, an item
 * line not where its list's dashes are).
 */
export function chainRegions(text: string, region: FlowRegion): ChainRegion[] | undefined {
  const chains: ChainRegion[] = [];
  const seen = new Set<string>();
  const flowIndent = region.keyStart - region.start;
  let bodyIndent = -1;
  let open: ChainRegion | undefined;
  const close = (): void => {
    if (open && open.items.length > 0) chains.push(open);
    open = undefined;
  };
  let pos = text.indexOf('\n', region.start) + 1;
  if (pos === 0) return [];
  while (pos < region.end) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl < 0 || nl >= region.end ? region.end : nl;
    const line = text.slice(pos, lineEnd);
    const lineStart = pos;
    pos = lineEnd + 1;
    const trimmed = line.trimStart();
    const lead = line.length - trimmed.length;
    const blank = trimmed.trim() === '';
    const comment = trimmed.startsWith('#');
    if (blank || comment) continue;
    if (bodyIndent < 0) {
      if (lead <= flowIndent) return undefined;
      bodyIndent = lead;
    }
    if (lead < bodyIndent) return undefined;
    const dash = /^-(\s|$)/.test(trimmed);
    if (open && open.dashCol < 0) {
      // The first line under a chain's key: a list item, or the chain is not a block list here.
      if (dash && lead >= bodyIndent) open.dashCol = lead;
      else open = undefined;
    }
    if (open && lead === open.dashCol && dash) {
      const last = open.items.at(-1);
      if (last) last.end = lineStart + lead;
      open.items.push({ start: lineStart + lead, end: region.end });
      continue;
    }
    if (open && lead > open.dashCol) continue;
    if (open && dash) return undefined;
    if (lead !== bodyIndent) {
      // Deeper lines of another key of the flow (its source's settings); inside a chain, a line off its dashes.
      if (open) return undefined;
      continue;
    }
    if (open) {
      open.items.at(-1)!.end = lineStart + lead;
      close();
    }
    const name = CHAIN_NAME.exec(trimmed)?.[2];
    if (name === undefined) continue;
    if (seen.has(name)) return undefined;
    seen.add(name);
    const key = CHAIN_KEY.exec(trimmed);
    if (key) open = { key: key[1] as ChainRegion['key'], keyLineEnd: lineEnd, items: [], dashCol: -1 };
  }
  close();
  return chains;
}
