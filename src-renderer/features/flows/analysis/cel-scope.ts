import { isMap, type Document, type Node } from 'yaml';
import type { DesignSettings } from '../../../../shared/flow-design.ts';
import { chainFieldOf, type SpecIndex } from './spec-index.ts';
import { getPair, keyOf, mapPairs, scalarText, seqItems } from './yaml-nodes.ts';

/** A variable a CEL expression can read at some step, and where it comes from. */
export interface ScopeVar {
  name: string;
  origin: string;
}

export interface CelScope {
  vars: ScopeVar[];
  /** In an error chain `error` (and `vars.error`) hold the failure. */
  inErrorChain: boolean;
}

/*
 * What each source puts in `vars`. The specs declare settings, not the variables a source sets,
 * so this table follows the sources' own code (http-route.ts, wire-message.ts, schedule.ts).
 */
function sourceVars(type: string, source: unknown): ScopeVar[] {
  const setting = (name: string) => scalarText(getPair(source, name)?.value);
  switch (type) {
    case 'http': {
      const path = setting('path') ?? '';
      const out: ScopeVar[] = [...path.matchAll(/\{([^}/]+)\}/g)].map((m) => ({ name: m[1], origin: `path parameter of ${path}` }));
      out.push({ name: 'method', origin: 'request method' }, { name: 'query', origin: 'query parameters, first value per key' });
      for (const h of seqItems(getPair(source, 'headers')?.value).map(scalarText)) if (h) out.push({ name: h, origin: 'request header the route copies' });
      const raw = setting('rawBodyVar');
      if (raw) out.push({ name: raw, origin: 'exact request body (rawBodyVar)' });
      const sse = getPair(source, 'sse')?.value;
      if (scalarText(getPair(sse, 'enabled')?.value) === 'true') out.push({ name: scalarText(getPair(sse, 'streamVar')?.value) ?? 'sseStream', origin: 'SSE stream address' });
      return out;
    }
    case 'queue':
    case 'topic':
      return [
        { name: 'subject', origin: `${type} subject` },
        { name: 'headers', origin: 'message headers' },
        { name: 'deliveryCount', origin: 'delivery attempt' },
        { name: 'messageId', origin: 'message id' },
      ];
    case 'schedule':
      return [{ name: 'scheduledAt', origin: 'time the run was due' }];
    default:
      return [];
  }
}

/**
 * The variables known at a step of a flow: what the source sets, then what every step that may
 * have run before it set (`set` vars, result variables such as `resultVar` and `statusVar`).
 */
export function celScope(doc: Document.Parsed, specs: SpecIndex, flow: string, stepPath: string | undefined): CelScope {
  const flowNode = getPair(getPair(doc.contents, 'flows')?.value, flow)?.value;
  const source = getPair(flowNode, 'source')?.value;
  const vars = sourceVars(scalarText(getPair(source, 'type')?.value) ?? '', source);
  const prefix = `flows.${flow}`;
  const inErrorChain = stepPath?.startsWith(`${prefix}.onError[`) ?? false;
  if (stepPath) {
    const collect = new Collector(specs, vars);
    if (inErrorChain) {
      collect.everything(getPair(flowNode, 'steps')?.value, `${prefix}.steps`);
      vars.push({ name: 'error', origin: 'the failure: {message, step, status}' });
      collect.before(getPair(flowNode, 'onError')?.value, `${prefix}.onError`, stepPath);
    } else {
      collect.before(getPair(flowNode, 'steps')?.value, `${prefix}.steps`, stepPath);
    }
  }
  const seen = new Set<string>();
  return { vars: vars.filter((v) => !seen.has(v.name) && (seen.add(v.name), true)), inErrorChain };
}

class Collector {
  constructor(
    private readonly specs: SpecIndex,
    private readonly out: ScopeVar[],
  ) {}

  /** Steps of a chain up to the target step; returns true once the target was reached. */
  before(chain: unknown, chainPath: string, target: string): boolean {
    const items = seqItems(chain);
    for (let i = 0; i < items.length; i++) {
      const path = `${chainPath}[${i}]`;
      if (path === target) return true;
      if (target.startsWith(`${path}.`)) {
        // The target is inside this step: only the branch holding it ran before it.
        for (const [branch, branchPath] of this.branches(items[i], path)) {
          if (target.startsWith(`${branchPath}[`)) return this.before(branch, branchPath, target);
        }
        return true;
      }
      this.step(items[i], path);
    }
    return false;
  }

  /** Every step of a chain, any branch of which may have run. */
  everything(chain: unknown, chainPath: string): void {
    seqItems(chain).forEach((item, i) => this.step(item, `${chainPath}[${i}]`));
  }

  private step(node: Node, path: string): void {
    const blockPair = mapPairs(node).find((p) => keyOf(p) !== 'name');
    if (!blockPair) return;
    const block = keyOf(blockPair);
    const settings = blockPair.value;
    const where = `${block} at ${path.replace(/^flows\.[^.]+\./, '')}`;
    if (block === 'set') for (const p of mapPairs(getPair(settings, 'vars')?.value)) this.out.push({ name: keyOf(p), origin: `set by ${where}` });
    const spec: DesignSettings = this.specs.blocks.get(block)?.settings ?? {};
    for (const [name, s] of Object.entries(spec)) {
      if (s.type !== 'string' || !name.endsWith('Var')) continue;
      const value = scalarText(getPair(settings, name)?.value) ?? (typeof s.default === 'string' ? s.default : undefined);
      if (value) this.out.push({ name: value, origin: `${name} of ${where}` });
    }
    for (const [branch, branchPath] of this.branches(node, path)) this.everything(branch, branchPath);
  }

  /** The nested chains of a step (switch cases and default, a lock's steps) with their paths. */
  private branches(node: Node, path: string): Array<[unknown, string]> {
    const blockPair = isMap(node) ? node.items.find((p) => keyOf(p) !== 'name') : undefined;
    if (!blockPair) return [];
    const block = keyOf(blockPair);
    const out: Array<[unknown, string]> = [];
    for (const [name, s] of Object.entries(this.specs.blocks.get(block)?.settings ?? {})) {
      const value = getPair(blockPair.value, name)?.value;
      if (s.type === 'steps') out.push([value, `${path}.${block}.${name}`]);
      const field = chainFieldOf(s);
      if (field) seqItems(value).forEach((item, i) => out.push([getPair(item, field)?.value, `${path}.${block}.${name}[${i}].${field}`]));
    }
    return out;
  }
}
