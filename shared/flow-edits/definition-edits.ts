import { isCollection, isMap, isScalar, type Node, type Scalar } from 'yaml';
import { DefinitionDocument, keyText, yamlText, type Splice } from './definition-document.ts';
import { finish, type FlowEditResult } from './edit-result.ts';
import { stepRegion } from './step-edits.ts';
import { FlowEditError, keysOf, type DocKey } from './step-place.ts';
import { lineStart, reindent, trimBack } from './yaml-text.ts';

/**
 * Adds a flow at the end of `flows:` (created when the file has none), with its source when
 * given and no steps yet.
 *
 * @example addFlow(text, 'orders', { type: 'http', path: '/orders', methods: ['POST'] })
 */
export function addFlow(text: string, name: string, source?: Record<string, unknown>): FlowEditResult {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new FlowEditError(`"${name}" cannot name a flow: use letters, digits, - and _`);
  const value = { ...(source ? { source } : {}), steps: [] };
  return finish(text, addEntry(text, 'flows', name, value), `flows.${name}`);
}

/** Adds a connector under `connectors:` (created when the file has none). */
export function addConnector(text: string, name: string, settings: Record<string, unknown>): FlowEditResult {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new FlowEditError(`"${name}" cannot name a connector: use letters, digits, - and _`);
  return finish(text, addEntry(text, 'connectors', name, settings));
}

function addEntry(text: string, section: 'flows' | 'connectors', name: string, value: unknown): Splice[] {
  const d = new DefinitionDocument(text);
  const root = d.doc.contents;
  const entry = yamlText({ [name]: value });
  const holder = d.node([section]);
  if (isMap(holder) && holder.items.some((p) => keyText(p) === name)) throw new FlowEditError(`there is already a ${section === 'flows' ? 'flow' : 'connector'} named ${name}`);
  if (isMap(holder) && holder.items.length > 0 && !holder.flow) return d.addPair(holder, name, `\n${reindent(yamlText(value), d.step)}`);
  if (root !== null && !isMap(root)) throw new FlowEditError('the file is not a map of env, connectors and flows');
  const pair = isMap(root) ? root.items.find((p) => keyText(p) === section) : undefined;
  if (pair) {
    // `flows:` with nothing under it, or `flows: {}`.
    const keyNode = pair.key as Node;
    const colon = text.indexOf(':', keyNode.range![1]);
    const v = pair.value as Node | null;
    const end = v?.range ? v.range[1] : colon + 1;
    return [{ start: colon + 1, end: Math.max(colon + 1, end), text: `\n${reindent(entry, d.step)}` }];
  }
  const block = `${section}:\n${reindent(entry, d.step)}\n`;
  if (isMap(root) && root.items.length > 0) return d.addPair(root, section, `\n${reindent(entry, d.step)}`);
  // An empty file (or one holding only comments): the section goes after what is there.
  const end = trimBack(text, text.length);
  const before = end === 0 ? '' : text.slice(0, end).endsWith('\n') ? '' : '\n';
  return [{ start: end, end: text.length, text: `${before}${end === 0 ? '' : '\n'}${block}` }];
}

/**
 * Sets one setting of a step's block (`undefined` removes it). A scalar keeps its quoting when it
 * can; an inline map stays inline; nothing else in the file moves.
 *
 * @example setStepSetting(text, 'flows.f.steps[0]', ['method'], 'POST')
 */
export function setStepSetting(text: string, stepPath: string, setting: readonly DocKey[], value: unknown): FlowEditResult {
  const d = new DefinitionDocument(text);
  const { region } = stepRegion(d, stepPath);
  const step = region.node;
  if (!isMap(step)) throw new FlowEditError(`there is no step ${stepPath} in the file`);
  const block = step.items.find((p) => keyText(p) !== 'name');
  const naming = setting.length === 1 && setting[0] === 'name';
  if (naming && value !== undefined && !step.items.some((p) => keyText(p) === 'name')) {
    // A new name goes first, where people write it: `- name: load` above the block.
    const first = (step.items[0].key as Node).range![0];
    const col = d.column(first);
    return finish(text, [{ start: first, end: first, text: `${yamlText({ name: value })}\n${' '.repeat(col)}` }], stepPath);
  }
  const keys = naming ? [...keysOf(stepPath), 'name'] : [...keysOf(stepPath), keyText(block!), ...setting];
  return finish(text, setValue(d, keys, value), stepPath);
}

/** Sets any value of the file by its keys, e.g. a flow's source settings: `['flows', 'f', 'source', 'path']`. */
export function setDefinitionValue(text: string, keys: readonly DocKey[], value: unknown): FlowEditResult {
  return finish(text, setValue(new DefinitionDocument(text), [...keys], value));
}

function setValue(d: DefinitionDocument, keys: DocKey[], value: unknown): Splice[] {
  const t = d.text;
  const parentKeys = keys.slice(0, -1);
  const key = String(keys[keys.length - 1]);
  const parent = d.node(parentKeys);
  if (parent === undefined || parent === null || (isScalar(parent) && parent.value === null)) {
    if (value === undefined) return [];
    if (parentKeys.length === 0) throw new FlowEditError('nothing to set');
    return setValue(d, parentKeys, { [key]: value });
  }
  if (!isMap(parent)) throw new FlowEditError(`${parentKeys.join('.')} is not a map of settings`);
  const pair = parent.items.find((p) => keyText(p) === key);
  if (!pair) {
    if (value === undefined) return [];
    if (parent.flow) return d.addPair(parent, key, ` ${yamlText(value, true)}`);
    return d.addPair(parent, key, valueAfterColon(d, value, false));
  }
  const keyNode = pair.key as Node;
  const old = pair.value as Node | null;
  if (value === undefined) return removePair(d, parent, pair.key as Node, old);
  if (!old?.range || (isScalar(old) && old.value === null && old.range[0] === old.range[1])) {
    const colon = t.indexOf(':', keyNode.range![1]);
    return [{ start: colon + 1, end: colon + 1, text: valueAfterColon(d, value, parent.flow ?? false, d.column(keyNode.range![0])) }];
  }
  return replaceNode(d, old, value, d.column(keyNode.range![0]), parent.flow ?? false);
}

/** The text after `key:` for a new value: inline for scalars and in inline maps, else on the lines below. */
function valueAfterColon(d: DefinitionDocument, value: unknown, inline: boolean, keyCol = 0): string {
  if (!isCollectionValue(value) || inline) return ` ${scalarOrFlow(value, inline)}`;
  const nested = isSeqValue(value) ? d.seqIndent : d.step;
  return `\n${reindent(yamlText(value), keyCol + nested)}`;
}

function replaceNode(d: DefinitionDocument, old: Node, value: unknown, keyCol: number, inFlow = false): Splice[] {
  const t = d.text;
  const start = old.range![0];
  // A block list or map, and a `|` or `>` scalar, run on to the next line's indentation: the
  // replacement ends where their text does, so what follows keeps its line.
  const end = isBlockNode(old) ? trimBack(t, old.range![1]) : old.range![1];
  if (isScalar(old) && !isCollectionValue(value)) return [{ start, end, text: scalarText(value, (old as Scalar).type) }];
  if (inFlow || (isCollection(old) && old.flow) || !isCollectionValue(value)) return [{ start, end, text: scalarOrFlow(value, true) }];
  // A block value: from the colon on, one level deeper than its key.
  const colon = t.lastIndexOf(':', start);
  const nested = isSeqValue(value) ? d.seqIndent : d.step;
  return [{ start: colon + 1, end, text: `\n${reindent(yamlText(value), keyCol + nested)}` }];
}

function removePair(d: DefinitionDocument, parent: Node, key: Node, value: Node | null): Splice[] {
  const t = d.text;
  if (isCollection(parent) && parent.flow) {
    // `{a: 1, b: 2}`: the entry and the comma joining it to its neighbour.
    const start = key.range![0];
    const end = value?.range ? value.range[1] : key.range![1];
    const after = /^\s*,\s*/.exec(t.slice(end));
    if (after) return [{ start, end: end + after[0].length, text: '' }];
    const before = /,\s*$/.exec(t.slice(0, start));
    return [{ start: before ? start - before[0].length : start, end, text: '' }];
  }
  const first = lineStart(t, key.range![0]);
  const pairOwner = parent as Node & { items: Array<{ key: unknown }> };
  const next = pairOwner.items[pairOwner.items.findIndex((p) => p.key === key) + 1]?.key as Node | undefined;
  if (/-\s*$/.test(t.slice(first, key.range![0])) && next?.range) {
    // `- name: load` above its block: the line holds the item's dash, which the next key takes.
    return [{ start: key.range![0], end: next.range[0], text: '' }];
  }
  if (pairOwner.items.length === 1) {
    // The last setting: the map becomes `{}` rather than a key with nothing under it.
    const colon = t.lastIndexOf(':', first - 1);
    return [{ start: colon + 1, end: d.pairEnd(pairOwner.items[0] as never) - 1, text: ' {}' }];
  }
  const end = d.pairEnd({ key, value } as never);
  return [{ start: first, end, text: '' }];
}

/** A scalar written as the one it replaces was: quotes stay quotes, plain stays plain when it can. */
function scalarText(value: unknown, type: Scalar['type']): string {
  if (typeof value === 'string' && /\n/.test(value)) return JSON.stringify(value);
  const doc = yamlText(value);
  if (typeof value !== 'string' || !type || type === 'PLAIN' || type === 'BLOCK_FOLDED' || type === 'BLOCK_LITERAL') return doc;
  if (type === 'QUOTE_SINGLE') return `'${value.replace(/'/g, "''")}'`;
  return JSON.stringify(value);
}

function scalarOrFlow(value: unknown, inline: boolean): string {
  if (typeof value === 'string' && /\n/.test(value)) return JSON.stringify(value);
  return yamlText(value, inline);
}

function isBlockNode(node: Node): boolean {
  if (isCollection(node)) return !node.flow;
  return isScalar(node) && (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED');
}

function isCollectionValue(v: unknown): boolean {
  return typeof v === 'object' && v !== null && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);
}

function isSeqValue(v: unknown): boolean {
  return Array.isArray(v);
}
