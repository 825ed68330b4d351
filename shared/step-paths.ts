import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair } from 'yaml';

/**
 * Step paths and where their steps are in a definition's YAML: one shape everywhere a step is
 * named (traces, coverage, re-runs, breakpoints, graph edits), e.g.
 * `flows.orders.steps[2].switch.cases[0].steps[1]`. Pure: the debugger (main and renderer), the
 * DAP adapter and the graph editor all map a path to a line, a line to a path, and a path to its
 * frames with it.
 *
 * @example
 * const shapes = chainShapesOf(blocks);           // from the registry or the design reference
 * const steps = stepLocations(yamlText, shapes);
 * stepAtLine(steps, 14)?.path                      // 'flows.orders.steps[1]'
 * steps.find((s) => s.path === 'flows.orders.steps[1]')?.line  // 12
 * stepFrames('flows.f.steps[2].switch.cases[0].steps[1]')  // ['flows.f.steps[2].switch.cases[0].steps[1]', 'flows.f.steps[2]']
 */

/** Where a block keeps nested steps: a `steps` setting (`setting`), or a list of objects with a steps field (`setting[i].field`). */
export interface ChainShape {
  setting: string;
  /** For a list of objects (switch `cases`): the field of each that holds the steps. */
  field?: string;
}

/** Block type → where its nested chains are. Blocks without nested steps are absent. */
export type ChainShapes = ReadonlyMap<string, readonly ChainShape[]>;

/** The part of a setting declaration the shapes are read from (runtime SettingsSpec and the studio's DesignSettings both fit). */
export interface ShapeSetting {
  type: string;
  items?: ShapeSetting;
  fields?: Readonly<Record<string, ShapeSetting>>;
}

/** Reads the chain shapes from block declarations: settings of type `steps`, and lists of objects with a `steps` field. */
export function chainShapesOf(blocks: Iterable<{ type: string; settings: Readonly<Record<string, ShapeSetting>> }>): ChainShapes {
  const shapes = new Map<string, ChainShape[]>();
  for (const block of blocks) {
    const found: ChainShape[] = [];
    for (const [setting, spec] of Object.entries(block.settings)) {
      if (spec.type === 'steps') found.push({ setting });
      else if (spec.type === 'list' && spec.items?.type === 'object' && spec.items.fields) {
        const field = Object.entries(spec.items.fields).find(([, f]) => f.type === 'steps')?.[0];
        if (field) found.push({ setting, field });
      }
    }
    if (found.length > 0) shapes.set(block.type, found);
  }
  return shapes;
}

/** One step of a definition file and where it is. Lines are 1-based, offsets 0-based [start, end). */
export interface StepLocation {
  path: string;
  flow: string;
  block: string;
  name?: string;
  /** First line of the step (its `- ` item). */
  line: number;
  /** Last line holding its settings (trailing blank lines left out). */
  endLine: number;
  start: number;
  end: number;
  /** 1 for a flow's own steps and its error chain's, one more per enclosing step. */
  depth: number;
  /** A short digest of the step's own text: what a breakpoint follows when the step moves to another path. */
  digest: string;
}

const STEP_NAME_KEY = 'name';

/**
 * Every step of every flow of a definition file, nested ones included, in document order (a step
 * before the steps inside it). Tolerates half-typed YAML: what cannot be read as a step is skipped.
 */
export function stepLocations(text: string, shapes: ChainShapes): StepLocation[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false });
  const out: StepLocation[] = [];
  const flows = pairValue(doc.contents, 'flows');
  if (!isMap(flows)) return out;
  for (const pair of flows.items) {
    const flow = keyText(pair);
    chain(pairValue(pair.value, 'steps'), `flows.${flow}.steps`, flow, 1);
    chain(pairValue(pair.value, 'onError'), `flows.${flow}.onError`, flow, 1);
  }
  return out;

  function chain(node: unknown, path: string, flow: string, depth: number): void {
    if (!isSeq(node)) return;
    node.items.forEach((item, i) => step(item as Node, `${path}[${i}]`, flow, depth));
  }

  function step(node: Node, path: string, flow: string, depth: number): void {
    if (!isMap(node) || !node.range) return;
    const blockPair = node.items.find((p) => keyText(p) !== STEP_NAME_KEY);
    if (!blockPair) return;
    const block = keyText(blockPair);
    const nameNode = pairValue(node, STEP_NAME_KEY);
    const name = isScalar(nameNode) && typeof nameNode.value === 'string' ? nameNode.value : undefined;
    // A `- ` item's range starts at its first key; its line is where the item starts.
    const start = node.range[0];
    let end = node.range[1];
    while (end > start && /\s/.test(text[end - 1])) end--;
    out.push({
      path,
      flow,
      block,
      ...(name !== undefined ? { name } : {}),
      line: lines.linePos(start).line,
      endLine: lines.linePos(Math.max(start, end - 1)).line,
      start,
      end,
      depth,
      digest: digestOf(text.slice(start, end)),
    });
    const settings = blockPair.value;
    for (const shape of shapes.get(block) ?? []) {
      const value = pairValue(settings, shape.setting);
      const base = `${path}.${block}.${shape.setting}`;
      if (shape.field === undefined) chain(value, base, flow, depth + 1);
      else if (isSeq(value)) value.items.forEach((item, i) => chain(pairValue(item, shape.field!), `${base}[${i}].${shape.field}`, flow, depth + 1));
    }
  }
}

/**
 * The step a line belongs to: the innermost step whose lines hold it. A line between steps or
 * outside every flow's steps (a source, a comment above the first step) belongs to none.
 */
export function stepAtLine(steps: readonly StepLocation[], line: number): StepLocation | undefined {
  let best: StepLocation | undefined;
  for (const s of steps) if (line >= s.line && line <= s.endLine && (!best || s.depth > best.depth)) best = s;
  return best;
}

/** The step with that path, if the file has it. */
export function stepAt(steps: readonly StepLocation[], path: string): StepLocation | undefined {
  return steps.find((s) => s.path === path);
}

/**
 * Where a step that was at `was` (path, line and digest when it was set) is now, after the file
 * changed: the same path when it still holds the same block; else the step with the same text
 * (it moved, e.g. a step was inserted above it); else the same block at the same line. Undefined
 * when none fits: the step was removed or rewritten.
 */
export function followStep(steps: readonly StepLocation[], was: { path: string; line: number; block?: string; digest?: string }): StepLocation | undefined {
  const same = stepAt(steps, was.path);
  if (same && (was.digest === undefined || same.digest === was.digest)) return same;
  if (was.digest !== undefined) {
    const moved = steps.filter((s) => s.digest === was.digest);
    if (moved.length > 0) return moved.reduce((a, b) => (Math.abs(b.line - was.line) < Math.abs(a.line - was.line) ? b : a));
  }
  if (same && (was.block === undefined || same.block === was.block)) return same;
  const atLine = stepAtLine(steps, was.line);
  return atLine && atLine.line === was.line && (was.block === undefined || atLine.block === was.block) ? atLine : undefined;
}

/**
 * The step of `saved` that `step` of an edited text of the same file is: the same text moved by
 * lines added above it, or the step edited where it stands. Undefined for a step added in the
 * edit (a saved step found by its path only, whose text the edit holds elsewhere, is another step
 * that moved down).
 */
export function savedStepOf(saved: readonly StepLocation[], edited: readonly StepLocation[], step: StepLocation): StepLocation | undefined {
  const found = followStep(saved, step);
  if (!found || (found.digest !== step.digest && edited.some((s) => s !== step && s.digest === found.digest))) return undefined;
  return found;
}

/**
 * The frames of a step path, innermost first: the step, then each step whose nested chain holds
 * it (`flows.f.steps[2].switch.cases[0].steps[1]` → itself, then `flows.f.steps[2]`). A list item
 * of a block's setting (`cases[0]`) is no step: a step is an item of a chain, whose path ends in
 * `steps[i]` or `onError[i]`, or any item of a block's nested `steps`-typed setting (`default[i]`).
 */
export function stepFrames(path: string): string[] {
  const parsed = parseStepPath(path);
  if (!parsed) return [];
  const frames: string[] = [];
  let at = `flows.${parsed.flow}`;
  for (const seg of parsed.segments) {
    at += seg.text;
    if (seg.step) frames.push(at);
  }
  return frames.reverse();
}

/** The flow a step path belongs to: `orders` for `flows.orders.steps[1]`. */
export function flowOfStep(path: string): string | undefined {
  return parseStepPath(path)?.flow;
}

/**
 * Of a run's traced steps, where it failed: the failed step none of whose inner steps (a branch's,
 * a lock's, an error chain's) failed too, not the containers that failed with it. What a failed
 * run's detail opens on and its Logs line names.
 */
export function innermostFailedStep<S extends { step: string; outcome: string }>(steps: readonly S[]): S | undefined {
  return steps.find((s) => s.outcome === 'failed' && !steps.some((inner) => inner.outcome === 'failed' && inner.step.startsWith(`${s.step}.`)));
}

/** True for a path that names a step (not a chain or a setting): it ends in an item of a chain. Without the block shapes a trailing `cases[0]` reads as a step too. */
export function isStepPath(path: string): boolean {
  const parsed = parseStepPath(path);
  return parsed !== undefined && parsed.segments.length > 0 && parsed.segments[parsed.segments.length - 1].step;
}

/**
 * What a step path looks like, as a JSON Schema `pattern` (the trace record's `step` is checked
 * with it on the wire): `flows.<flow>` then dotted names, each optionally indexed. It admits a
 * chain (`flows.f.steps`) too; isStepPath tells a step from a chain with the block shapes' rules.
 */
export const STEP_PATH_PATTERN = '^flows\\.([^.[\\]]+)((?:\\.[^.[\\]]+(?:\\[\\d+\\])?)*)$';
const STEP_PATH = new RegExp(STEP_PATH_PATTERN);

interface PathSegment {
  text: string;
  /** The segment ends a step: `.steps[2]`, `.onError[0]`, `.default[1]`. */
  step: boolean;
}

/**
 * `flows.f.steps[2].switch.cases[0].steps[1]` → flow `f` and segments `.steps[2]` (a step),
 * `.switch` (its block), `.cases[0]` (an object of a list setting), `.steps[1]` (a step). After a
 * block comes a setting: an item of it is a step when nothing or a block name follows it
 * (`.default[0]`, `.default[0].set`), an object when an indexed field follows (`.cases[0].steps[1]`).
 */
function parseStepPath(path: string): { flow: string; segments: PathSegment[] } | undefined {
  const m = STEP_PATH.exec(path);
  if (!m) return undefined;
  const parts = m[2].match(/\.[^.[\]]+(?:\[\d+\])?/g) ?? [];
  const indexed = (part: string | undefined): boolean => part !== undefined && part.endsWith(']');
  const segments: PathSegment[] = [];
  let state: 'chain' | 'block' | 'setting' | 'field' = 'chain';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    let step = false;
    if (state === 'chain' || state === 'field') {
      step = indexed(part);
      state = step ? 'block' : 'setting';
    } else if (state === 'block') {
      state = 'setting';
    } else if (indexed(part)) {
      step = !indexed(parts[i + 1]);
      state = step ? 'block' : 'field';
    }
    segments.push({ text: part, step });
  }
  return { flow: m[1], segments };
}

function pairValue(node: unknown, key: string): unknown {
  if (!isMap(node)) return undefined;
  return node.items.find((p) => keyText(p) === key)?.value;
}

function keyText(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key ?? '');
}

/** FNV-1a of the text with its indentation and blank lines left out, so a re-indented or moved step keeps its digest. */
function digestOf(text: string): string {
  const normal = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join('\n');
  let h = 0x811c9dc5;
  for (let i = 0; i < normal.length; i++) {
    h ^= normal.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}
