import type { Chain, ChainRest } from './chain.ts';

/** Where a run starts part-way: how to run from there, and whether that is inside the error chain. */
export interface StepEntry {
  start: ChainRest;
  inErrorChain: boolean;
}

interface Frame {
  chain: Chain;
  index: number;
}

/**
 * How to run a flow from any of its steps, nested ones included (`flows.f.steps[2].switch.cases[0].steps[1]`):
 * the rest of the innermost chain, handed to the block that owns it (which re-enters it as it
 * would have, a lock taking its lease), then the rest of that block's chain, and so on out to the
 * flow's steps or its error chain. Throws naming the step when the current definition has no such
 * step or a block on the way cannot be entered part-way.
 */
export function stepEntry(flow: string, stepPath: string, chains: ReadonlyMap<string, Chain>, top: { steps: Chain; onError?: Chain }): StepEntry {
  const frames: Frame[] = [];
  let path = stepPath;
  for (;;) {
    const frame = frameOf(path, chains);
    if (!frame) throw new Error(`${stepPath} is not a step of flow "${flow}" in the current definition; was it moved or removed?`);
    frames.unshift(frame);
    if (frame.chain === top.steps || (top.onError !== undefined && frame.chain === top.onError)) break;
    const owner = ownerOf(frame.chain.path, chains);
    if (!owner) throw new Error(`${stepPath} is not a step of flow "${flow}" in the current definition; was it moved or removed?`);
    const step = owner.chain.steps[owner.index];
    if (!step.block.resume) throw new Error(`a run cannot start inside ${step.path} (${step.type}): that block does not re-enter its steps part-way; start at ${step.path}`);
    path = step.path;
  }
  const last = frames[frames.length - 1];
  let start: ChainRest = (msg, run) => last.chain.startAt(last.index, msg, run);
  for (let k = frames.length - 2; k >= 0; k--) {
    const { chain, index } = frames[k];
    const rest = start;
    start = (msg, run) => chain.resumeAt(index, rest, msg, run);
  }
  return { start, inErrorChain: frames[0].chain === top.onError };
}

/** `….steps[3]` → that chain and index, when the chain holds a step of exactly that path. */
function frameOf(path: string, chains: ReadonlyMap<string, Chain>): Frame | undefined {
  const m = /^(.+)\[(\d+)\]$/.exec(path);
  if (!m) return undefined;
  const chain = chains.get(m[1]);
  const index = Number(m[2]);
  return chain?.steps[index]?.path === path ? { chain, index } : undefined;
}

/**
 * The step whose block holds a nested chain: the longest prefix of the chain's path that is a step
 * (`flows.f.steps[2]` for `flows.f.steps[2].switch.cases[0].steps`; `cases[0]` is no step).
 */
function ownerOf(chainPath: string, chains: ReadonlyMap<string, Chain>): Frame | undefined {
  for (let end = chainPath.lastIndexOf('].'); end > 0; end = chainPath.lastIndexOf('].', end - 1)) {
    const frame = frameOf(chainPath.slice(0, end + 1), chains);
    if (frame && chainPath.startsWith(`${frame.chain.steps[frame.index].path}.${frame.chain.steps[frame.index].type}.`)) return frame;
  }
  return undefined;
}
