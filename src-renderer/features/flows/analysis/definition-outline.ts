import { isMap, type Document, type Node, type Pair } from 'yaml';
import type { DefinitionOutline, OutlineBranch, OutlineFlow, OutlineSource, OutlineStep } from './outline-types.ts';
import { chainFieldOf, type SpecIndex } from './spec-index.ts';
import { clip, getPair, keyOf, mapPairs, pairSpan, scalarText, seqItems, spanOf } from './yaml-nodes.ts';

/**
 * The flows and connectors a definition file declares, with their steps, nested branches and
 * the spans the graph selects. Steps carry the runtime's setting paths so trace counts land on
 * them. Tolerates half-typed YAML: what cannot be read is skipped, not reported (the loader and
 * the schema report problems).
 */
export function definitionOutline(doc: Document.Parsed, text: string, specs: SpecIndex): DefinitionOutline {
  const o = new Outliner(text, specs);
  const root = doc.contents;
  const connectors = mapPairs(getPair(root, 'connectors')?.value).flatMap((pair) => {
    const span = pairSpan(pair, text);
    return span ? [{ name: keyOf(pair), type: scalarText(getPair(pair.value, 'type')?.value) ?? '', span }] : [];
  });
  const flows = mapPairs(getPair(root, 'flows')?.value).flatMap((pair) => o.flow(pair) ?? []);
  return { flows, connectors };
}

/**
 * One step of a chain as the outline reads it, from its own node: how a flow's outline is read
 * step by step (stepwise-outline.ts) with the same reading as the whole file's.
 */
export function stepOutline(node: Node, text: string, specs: SpecIndex, path: string): OutlineStep | undefined {
  return new Outliner(text, specs).step(node, path);
}

class Outliner {
  constructor(
    private readonly text: string,
    private readonly specs: SpecIndex,
  ) {}

  flow(pair: Pair): OutlineFlow | undefined {
    const span = pairSpan(pair, this.text);
    const keySpan = spanOf(pair.key as Node, this.text);
    if (!span || !keySpan) return undefined;
    const name = keyOf(pair);
    const sourcePair = getPair(pair.value, 'source');
    return {
      name,
      span,
      keySpan,
      source: sourcePair ? this.source(sourcePair) : undefined,
      steps: this.chain(getPair(pair.value, 'steps')?.value, `flows.${name}.steps`),
      onError: this.chain(getPair(pair.value, 'onError')?.value, `flows.${name}.onError`),
    };
  }

  private source(pair: Pair): OutlineSource | undefined {
    const span = pairSpan(pair, this.text);
    if (!span) return undefined;
    const type = scalarText(getPair(pair.value, 'type')?.value) ?? '?';
    let detail: string;
    if (type === 'http') {
      const methods = seqItems(getPair(pair.value, 'methods')?.value).map(scalarText).filter(Boolean);
      detail = `${methods.length ? methods.join(' ') : 'ANY'} ${scalarText(getPair(pair.value, 'path')?.value) ?? ''}`;
    } else {
      detail = firstSetting(pair.value as Node, this.specs.sources.get(type)?.settings, ['type', 'connector']) ?? '';
    }
    return { type, detail: clip(detail), span };
  }

  chain(node: unknown, chainPath: string): OutlineStep[] {
    return seqItems(node).flatMap((item, i) => this.step(item, `${chainPath}[${i}]`) ?? []);
  }

  step(node: Node, path: string): OutlineStep | undefined {
    const span = spanOf(node, this.text);
    if (!span || !isMap(node)) return undefined;
    const blockPair = node.items.find((p) => keyOf(p) !== 'name');
    if (!blockPair) return undefined;
    const block = keyOf(blockPair);
    const spec = this.specs.blocks.get(block)?.settings;
    const settings = blockPair.value as Node | null;
    const flowRef = block === 'flow-ref' ? scalarText(getPair(settings, 'flow')?.value) : undefined;
    const name = scalarText(getPair(node, 'name')?.value);
    return {
      path,
      block,
      ...(name ? { name } : {}),
      detail: flowRef ? `→ ${flowRef}` : firstSetting(settings, spec, []),
      span,
      branches: this.branches(block, settings, `${path}.${block}`),
      ...(flowRef ? { flowRef } : {}),
    };
  }

  /** Nested chains from the block's spec: steps settings, and lists of cases that hold steps. */
  private branches(block: string, settings: Node | null, blockPath: string): OutlineBranch[] {
    const cases: OutlineBranch[] = [];
    const others: OutlineBranch[] = [];
    for (const [name, setting] of Object.entries(this.specs.blocks.get(block)?.settings ?? {})) {
      const settingPair = getPair(settings, name);
      if (setting.type === 'steps') {
        // A switch always has an otherwise-branch: its default steps, or passing the message on.
        if (!settingPair && block !== 'switch') continue;
        others.push({
          kind: name === 'default' ? 'default' : 'steps',
          label: name,
          path: `${blockPath}.${name}`,
          steps: this.chain(settingPair?.value, `${blockPath}.${name}`),
          span: settingPair ? pairSpan(settingPair, this.text) : undefined,
        });
        continue;
      }
      const field = chainFieldOf(setting);
      if (!field) continue;
      seqItems(settingPair?.value).forEach((item, i) => {
        const chainPath = `${blockPath}.${name}[${i}].${field}`;
        const label = mapPairs(item).filter((p) => keyOf(p) !== field).map((p) => `${keyOf(p)} ${scalarText(p.value) ?? '…'}`)[0];
        cases.push({ kind: 'case', label: clip(label ?? `${name}[${i}]`, 60), path: chainPath, steps: this.chain(getPair(item, field)?.value, chainPath), span: spanOf(item, this.text) });
      });
    }
    return [...cases, ...others];
  }
}

/** `setting: value` of the first written scalar setting, required ones first, for a node label. */
function firstSetting(node: Node | null, spec: Record<string, { required?: boolean }> | undefined, skip: string[]): string | undefined {
  const pairs = mapPairs(node).filter((p) => !skip.includes(keyOf(p)) && scalarText(p.value) !== undefined);
  if (pairs.length === 0) return undefined;
  const chosen = pairs.find((p) => spec?.[keyOf(p)]?.required) ?? pairs[0];
  return clip(`${keyOf(chosen)}: ${scalarText(chosen.value)}`);
}
