import { isMap } from 'yaml';
import { DefinitionDocument, itemText, keyText, type ChainAt, type ItemRegion, type Splice } from './definition-document.ts';
import { finish, type FlowEditResult } from './edit-result.ts';
import { chainFollows, dropped, FlowEditError, placeOf, shiftFrom, stepPathOf, within, type StepPlace } from './step-place.ts';
import { reindent } from './yaml-text.ts';

/** A new step as data, e.g. `{ name: 'load', rest: { connector: 'api', method: 'GET', path: '/a' } }`. */
export type NewStep = Record<string, unknown>;

/**
 * Inserts a new step at a place: between steps, into a switch case or default, a lock's body,
 * an error chain (created when the flow has none).
 *
 * @example insertStep(text, { chain: 'flows.orders.steps', index: 1 }, { log: { message: '"hi"' } })
 */
export function insertStep(text: string, place: StepPlace, step: NewStep): FlowEditResult {
  const d = new DefinitionDocument(text);
  const chain = chainOrFail(d, place.chain);
  const splices = d.insertItems(chain, place.index, itemText(step), place.chain);
  return finish(text, splices, stepPathOf(place), shiftFrom(place.chain, place.index, 1));
}

/** Removes a step with its comments and the blank lines that set it apart. */
export function deleteStep(text: string, path: string): FlowEditResult {
  const d = new DefinitionDocument(text);
  const { chain, index } = stepRegion(d, path);
  return finish(text, removeItem(d, chain, index), undefined, chainFollows(dropped(path), shiftFrom(placeOf(path).chain, index + 1, -1)));
}

/** Puts a copy of a step right after it. */
export function duplicateStep(text: string, path: string): FlowEditResult {
  const d = new DefinitionDocument(text);
  const { chain, index, region } = stepRegion(d, path);
  const copy = reindent(text.slice(region.dashLine, region.end).replace(/\n$/, ''), -region.dashCol);
  const place = { chain: placeOf(path).chain, index: index + 1 };
  return finish(text, d.insertItems(chain, index + 1, copy), stepPathOf(place), shiftFrom(place.chain, index + 1, 1));
}

/**
 * Moves a step (with its comments) to another place: within its chain or into another one.
 * `to.index` counts the places of the target chain as it is before the move.
 */
export function moveStep(text: string, from: string, to: StepPlace): FlowEditResult {
  const d = new DefinitionDocument(text);
  const source = placeOf(from);
  if (within(to.chain, from)) throw new FlowEditError('a step cannot move into itself');
  const { chain, index, region } = stepRegion(d, from);
  if (to.chain === source.chain && (to.index === index || to.index === index + 1)) return finish(text, [], from);
  const target = chainOrFail(d, to.chain);
  const block = reindent(text.slice(region.start, region.end).replace(/\n$/, ''), -region.dashCol);
  const removal = removeItem(d, chain, index);
  // The target chain itself may sit after the moved step in the same list: its path shifts.
  const afterRemoval = shiftFrom(source.chain, index + 1, -1);
  const targetChain = afterRemoval(to.chain)!;
  const targetIndex = to.chain === source.chain && to.index > index ? to.index - 1 : to.index;
  const insertion = d.insertItems(target, to.index, block, to.chain);
  const landed = { chain: targetChain, index: targetIndex };
  const follow = chainFollows(
    (p) => (within(p, from) ? `\u0000${p.slice(from.length)}` : p),
    afterRemoval,
    shiftFrom(targetChain, targetIndex, 1),
    (p) => (p.startsWith('\u0000') ? stepPathOf(landed) + p.slice(1) : p),
  );
  return finish(text, [...removal, ...insertion], stepPathOf(landed), follow);
}

/** The chain a place names; the list may be missing (it is then created) but its owner must exist. */
export function chainOrFail(d: DefinitionDocument, path: string): ChainAt {
  const chain = d.chain(path);
  if (!chain.parent) throw new FlowEditError(`${path} is not in the file`);
  return chain;
}

export function stepRegion(d: DefinitionDocument, path: string): { chain: ChainAt; index: number; region: ItemRegion } {
  const { chain: chainPath, index } = placeOf(path);
  const chain = d.chain(chainPath);
  if (chain.seq?.flow) {
    throw new FlowEditError(`${chainPath} is written inline ([...]); write it as a block list (one "- " per line) to edit its steps on the graph`);
  }
  const region = chain.items[index];
  if (!region || !isMap(region.node) || !(region.node.items as unknown[]).some((p) => keyText(p as never) !== 'name')) {
    throw new FlowEditError(`there is no step ${path} in the file`);
  }
  return { chain, index, region };
}

/**
 * Splices removing item `index` of a block list: its lines and the blank lines after it (before
 * it, for the last item), or the whole list, which becomes `[]`, when it was the only item.
 */
export function removeItem(d: DefinitionDocument, chain: ChainAt, index: number): Splice[] {
  const { items } = chain;
  const region = items[index];
  if (items.length === 1) return d.setList(chain, '').map((s) => ({ ...s, text: ' []' }));
  if (index < items.length - 1) return [{ start: region.start, end: items[index + 1].start, text: '' }];
  return [{ start: items[index - 1].end, end: region.end, text: '' }];
}
