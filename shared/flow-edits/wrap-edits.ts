import { isMap, type Node } from 'yaml';
import { DefinitionDocument, itemText, keyText } from './definition-document.ts';
import { finish, type FlowEditResult } from './edit-result.ts';
import { removeItem, stepRegion } from './step-edits.ts';
import { chainFollows, dropped, FlowEditError, placeOf, shiftFrom, within, type PathFollow } from './step-place.ts';
import { reindent } from './yaml-text.ts';

export type Wrapper = { switch: { when: string } } | { lock: { name: string } };

/**
 * Wraps neighbouring steps of one chain into the first case of a new switch, or the body of a
 * new lock; their text (comments included) moves in unchanged but for its indentation.
 *
 * @example wrapSteps(text, ['flows.f.steps[1]', 'flows.f.steps[2]'], { lock: { name: '"nightly"' } })
 */
export function wrapSteps(text: string, paths: readonly string[], wrapper: Wrapper): FlowEditResult {
  if (paths.length === 0) throw new FlowEditError('select the steps to wrap');
  const d = new DefinitionDocument(text);
  const places = paths.map(placeOf).sort((a, b) => a.index - b.index);
  const chainPath = places[0].chain;
  if (places.some((p) => p.chain !== chainPath)) throw new FlowEditError('the steps to wrap must be in the same list');
  places.forEach((p, i) => {
    if (i > 0 && p.index !== places[i - 1].index + 1) throw new FlowEditError('the steps to wrap must follow one another');
  });
  const first = places[0].index;
  const last = places[places.length - 1].index;
  const regions = [first, last].map((i) => stepRegion(d, `${chainPath}[${i}]`).region);
  const body = reindent(text.slice(regions[0].start, regions[1].end).replace(/\n$/, ''), -regions[0].dashCol);
  const s = d.seqIndent;
  let head: string;
  let inner: string;
  let bodyCol: number;
  if ('switch' in wrapper) {
    // - switch:\n    cases:\n      - when: …\n        steps:\n          <body>
    const caseDash = 4 + s;
    head = `- switch:\n    cases:\n${reindent(itemText({ when: wrapper.switch.when, steps: null }).replace(/ null$/, ''), caseDash)}`;
    bodyCol = caseDash + 2 + s;
    inner = 'switch.cases[0].steps';
  } else {
    head = `- lock:\n${reindent(yamlPair('name', wrapper.lock.name), 4)}\n    steps:`;
    bodyCol = 4 + s;
    inner = 'lock.steps';
  }
  const wrapped = reindent(`${head}\n${reindent(body, bodyCol)}`, regions[0].dashCol);
  const at = `${chainPath}[${first}]`;
  const count = last - first + 1;
  const follow: PathFollow = (p) => {
    for (let i = first; i <= last; i++) {
      const was = `${chainPath}[${i}]`;
      if (within(p, was)) return `${at}.${inner}[${i - first}]${p.slice(was.length)}`;
    }
    return shiftFrom(chainPath, last + 1, 1 - count)(p);
  };
  return finish(text, [{ start: regions[0].start, end: regions[1].end, text: `${wrapped}\n` }], at, follow);
}

/**
 * Replaces a switch or a lock by the steps of one of its chains (default: a lock's body, a
 * switch's first case): the step's own comment lines stay, the rest of it goes.
 */
export function unwrapStep(text: string, path: string, branch?: string): FlowEditResult {
  const d = new DefinitionDocument(text);
  const { chain, index, region } = stepRegion(d, path);
  const block = blockOf(region.node);
  const branchPath = branch ?? (block === 'lock' ? `${path}.lock.steps` : block === 'switch' ? `${path}.switch.cases[0].steps` : undefined);
  if (!branchPath || !within(branchPath, path)) throw new FlowEditError(`a ${block} step holds no steps to unwrap`);
  const inner = d.chain(branchPath);
  const chainPath = placeOf(path).chain;
  const n = inner.seq?.items.length ?? 0;
  if (n === 0) {
    return finish(text, removeItem(d, chain, index), undefined, chainFollows(dropped(path), shiftFrom(chainPath, index + 1, -1)));
  }
  if (inner.seq?.flow) throw new FlowEditError(`${branchPath} is written inline ([...]); write it as a block list to unwrap it`);
  const body = reindent(d.itemsText(inner.items), region.dashCol);
  const follow: PathFollow = (p) => {
    if (within(p, branchPath) && p !== branchPath) {
      const m = /^\[(\d+)\]/.exec(p.slice(branchPath.length));
      if (m) return `${chainPath}[${index + Number(m[1])}]${p.slice(branchPath.length + m[0].length)}`;
    }
    if (within(p, path)) return undefined;
    return shiftFrom(chainPath, index + 1, n - 1)(p);
  };
  return finish(text, [{ start: region.dashLine, end: region.end, text: `${body}\n` }], path, follow);
}

/** Adds a case to a switch (at the end unless `index` says where) with no steps yet. */
export function addCase(text: string, switchPath: string, when: string, index?: number): FlowEditResult {
  const d = new DefinitionDocument(text);
  stepRegion(d, switchPath);
  const casesPath = `${switchPath}.switch.cases`;
  const cases = d.chain(casesPath);
  if (!cases.parent) throw new FlowEditError(`${switchPath} is not a switch`);
  const at = index ?? cases.seq?.items.length ?? 0;
  const item = itemText({ when, steps: [] });
  return finish(text, d.insertItems(cases, at, item, `the cases of ${switchPath}`), `${casesPath}[${at}]`, shiftFrom(casesPath, at, 1));
}

/** Removes a case of a switch with its steps; the last case cannot go (unwrap or delete the switch instead). */
export function removeCase(text: string, switchPath: string, index: number): FlowEditResult {
  const d = new DefinitionDocument(text);
  const casesPath = `${switchPath}.switch.cases`;
  const cases = d.chain(casesPath);
  if (!cases.seq || cases.seq.flow || !cases.items[index]) throw new FlowEditError(`${switchPath} has no case ${index + 1}`);
  if (cases.items.length === 1) throw new FlowEditError('a switch needs at least one case: delete or unwrap the switch instead');
  const gone = `${casesPath}[${index}]`;
  return finish(text, removeItem(d, cases, index), switchPath, chainFollows(dropped(gone), shiftFrom(casesPath, index + 1, -1)));
}

function blockOf(node: Node): string {
  if (!isMap(node)) return 'this';
  const pair = node.items.find((p) => keyText(p) !== 'name');
  return pair ? keyText(pair) : 'this';
}

function yamlPair(key: string, value: string): string {
  return itemText({ [key]: value }).replace(/^- /, '');
}
