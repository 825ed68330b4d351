import { isMap, isScalar, isSeq, parseDocument, type Node, type YAMLMap } from 'yaml';
import { type ComponentRegistry, type DefinitionText, type TraceRecord } from '../../runtime/index.ts';

/** A step of a definition, by the path traces name it with (e.g. `flows.notes.steps[0].switch.cases[1].steps[0]`). */
export interface CoverageStep {
  flow: string;
  path: string;
  block: string;
  name?: string;
  hits: number;
}

/** One way through a switch (a case, or default) or a filter (pass, or reject/drop). */
export interface CoverageBranch {
  flow: string;
  /** The switch or filter step. */
  step: string;
  label: string;
  hits: number;
}

export interface Coverage {
  steps: CoverageStep[];
  branches: CoverageBranch[];
}

/**
 * Which steps and which switch/filter branches the given trace events went through, over every
 * step the definitions declare (nested chains included), read from the YAML with the blocks'
 * own specs so a new block with a `steps` setting is covered without a line here.
 */
export function coverageOf(texts: readonly DefinitionText[], registry: ComponentRegistry, events: readonly TraceRecord[]): Coverage {
  const steps: CoverageStep[] = [];
  const branches: CoverageBranch[] = [];
  const switches: Array<{ flow: string; path: string; cases: number; hasDefault: boolean }> = [];
  const filters: Array<{ flow: string; path: string }> = [];

  const walkChain = (node: Node | null | undefined, path: string, flow: string): void => {
    if (!isSeq(node)) return;
    node.items.forEach((item, i) => {
      if (!isMap(item)) return;
      const stepPath = `${path}[${i}]`;
      const pairs = (item as YAMLMap).items.filter((p) => String((p.key as { value?: unknown }).value) !== 'name');
      const nameNode = (item as YAMLMap).get('name', true) as Node | undefined;
      if (pairs.length !== 1) return;
      const type = String((pairs[0].key as { value?: unknown }).value);
      steps.push({ flow, path: stepPath, block: type, name: isScalar(nameNode) ? String(nameNode.value) : undefined, hits: 0 });
      const settings = pairs[0].value as Node | null;
      if (type === 'filter') filters.push({ flow, path: stepPath });
      if (type === 'switch' && isMap(settings)) {
        const cases = settings.get('cases', true) as Node | undefined;
        switches.push({ flow, path: stepPath, cases: isSeq(cases) ? cases.items.length : 0, hasDefault: settings.has('default') });
      }
      const spec = registry.blocks.get(type)?.def.settings;
      if (!spec || !isMap(settings)) return;
      for (const [name, s] of Object.entries(spec)) {
        const value = settings.get(name, true) as Node | undefined;
        if (s.type === 'steps') walkChain(value, `${stepPath}.${type}.${name}`, flow);
        else if (s.type === 'list' && s.items.type === 'object' && isSeq(value)) {
          const nested = Object.entries(s.items.fields).filter(([, f]) => f.type === 'steps');
          value.items.forEach((entry, j) => {
            for (const [field] of nested) if (isMap(entry)) walkChain(entry.get(field, true) as Node, `${stepPath}.${type}.${name}[${j}].${field}`, flow);
          });
        }
      }
    });
  };

  for (const t of texts) {
    const doc = parseDocument(t.text);
    const flows = isMap(doc.contents) ? (doc.contents.get('flows', true) as Node | undefined) : undefined;
    if (!isMap(flows)) continue;
    for (const pair of flows.items) {
      const flow = String((pair.key as { value?: unknown }).value);
      if (!isMap(pair.value)) continue;
      walkChain(pair.value.get('steps', true) as Node, `flows.${flow}.steps`, flow);
      walkChain(pair.value.get('onError', true) as Node, `flows.${flow}.onError`, flow);
    }
  }

  const stepEvents = events.filter((e) => e.kind === 'step' && e.step);
  const byPath = new Map(steps.map((s) => [s.path, s]));
  for (const e of stepEvents) {
    const s = byPath.get(e.step!);
    if (s) s.hits++;
  }
  for (const sw of switches) {
    const prefix = `${sw.path}.switch.`;
    const counts = new Array<number>(sw.cases + 1).fill(0);
    const runs = new Set(stepEvents.filter((e) => e.step === sw.path).map((e) => e.runId));
    for (const run of runs) {
      const inside = stepEvents.find((e) => e.runId === run && e.step!.startsWith(prefix));
      const m = inside ? /^cases\[(\d+)\]/.exec(inside.step!.slice(prefix.length)) : null;
      counts[m ? Number(m[1]) : sw.cases]++;
    }
    for (let j = 0; j < sw.cases; j++) branches.push({ flow: sw.flow, step: sw.path, label: `case ${j}`, hits: counts[j] });
    branches.push({ flow: sw.flow, step: sw.path, label: sw.hasDefault ? 'default' : 'no case (passes unchanged)', hits: counts[sw.cases] });
  }
  for (const f of filters) {
    const ran = stepEvents.filter((e) => e.step === f.path);
    // A filter that lets a message pass returns it untouched; a reject rewrites it, a drop ends it.
    const passed = ran.filter((e) => e.outcome === 'completed' && JSON.stringify(e.input) === JSON.stringify(e.output)).length;
    branches.push({ flow: f.flow, step: f.path, label: 'pass', hits: passed });
    branches.push({ flow: f.flow, step: f.path, label: 'reject or drop', hits: ran.length - passed });
  }
  return { steps, branches };
}
