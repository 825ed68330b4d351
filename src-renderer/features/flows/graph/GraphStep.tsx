import { memo, useState, type DragEvent, type MouseEvent } from 'react';
import type { StudioBreakpoint } from '../../../../shared/debugger-types.ts';
import { useStudio, type StudioState } from '../../../store/studio-store.ts';
import type { OutlineBranch, OutlineStep } from '../analysis/outline-types.ts';
import { statsKey } from '../run-stats.ts';
import { Counts } from './Counts.tsx';
import { countsLabel, sameStep, takenBranch } from './graph-paths.ts';

/** What a drag carries: a step of this graph (moved) or a block of the palette (inserted). */
export const STEP_DRAG = 'application/x-flow-step';
export const BLOCK_DRAG = 'application/x-flow-block';

/** A block of a palette (the graph's strip, the Blocks tab) starts a drag: a drop place of the graph inserts it (FlowGraph's dropOnGraph). */
export function dragBlock(e: DragEvent, type: string): void {
  e.dataTransfer.setData(BLOCK_DRAG, type);
  e.dataTransfer.effectAllowed = 'copy';
}

/**
 * What every node of the graph shares. It changes with the file, the flow, breakpoints and test
 * coverage, not with an edit, a selection or a new run: a node reads its own selection, counts
 * and last outcome from the store, so an edit redraws only the nodes it changed.
 */
export interface GraphContext {
  integration: string;
  /** The flow shown: its last run lights the path. */
  flow: string;
  /** Selects a node (its path) and its YAML; `add` keeps the other selected nodes (Ctrl/Shift+click). */
  select(path: string, add: boolean): void;
  showFlow(name: string): void;
  /** The open file's breakpoints by the step they are on, and the steps a paused run waits before. */
  breakpoints: ReadonlyMap<string, StudioBreakpoint>;
  pausedAt: ReadonlySet<string>;
  /** Sets a breakpoint on the step at a path, or removes the one it has (as a click in the editor's gutter does). */
  toggleBreakpoint(path: string): void;
  /** A step or a palette block dropped at a place of a chain. */
  drop(chain: string, index: number, e: DragEvent): void;
  /** Times the last run of the integration's flow tests went through each step, by step path. */
  coverage?: ReadonlyMap<string, number>;
  /** Times those tests took each switch branch, by `<switch step path>|<case N|default>`. */
  branchCoverage?: ReadonlyMap<string, number>;
}

/** A list of steps top to bottom, each joined to the next, with a drop place before, between and after them. */
export function GraphChain({ chain, steps, ctx, empty }: { chain: string; steps: OutlineStep[]; ctx: GraphContext; empty?: string }) {
  const keys = stepKeys(steps);
  return (
    <ol className="graph-chain" data-chain={chain}>
      <DropGap chain={chain} index={0} ctx={ctx} />
      {steps.length === 0 ? <li className="graph-empty muted">{empty ?? 'no steps'}</li> : null}
      {steps.map((s, i) => (
        <GraphStepWithGap key={keys[i]} step={s} index={i} chain={chain} ctx={ctx} />
      ))}
    </ol>
  );
}

/**
 * React keys that follow a step through an edit: its block, name and detail (the n-th of equal
 * ones), not its path, which shifts for every step below an insertion; the nodes then move rather
 * than being drawn anew.
 */
export function stepKeys(steps: readonly OutlineStep[]): string[] {
  const seen = new Map<string, number>();
  return steps.map((s) => {
    const base = `${s.block}|${s.name ?? ''}|${s.detail ?? ''}|${s.branches.length}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return `${base}#${n}`;
  });
}

export function GraphStepWithGap({ step, index, chain, ctx, itemKey }: { step: OutlineStep; index: number; chain: string; ctx: GraphContext; itemKey?: string }) {
  return (
    <>
      <GraphStep step={step} ctx={ctx} itemKey={itemKey} />
      <DropGap chain={chain} index={index + 1} ctx={ctx} />
    </>
  );
}

/** Where a dragged step or block lands: it shows while something is dragged over the graph. */
export function DropGap({ chain, index, ctx }: { chain: string; index: number; ctx: GraphContext }) {
  const [over, setOver] = useState(false);
  const accepts = (e: DragEvent): boolean => e.dataTransfer.types.includes(STEP_DRAG) || e.dataTransfer.types.includes(BLOCK_DRAG);
  return (
    <li
      className={`graph-gap${over ? ' over' : ''}`}
      data-chain={chain}
      data-index={index}
      aria-hidden="true"
      onDragOver={(e) => {
        if (!accepts(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = e.dataTransfer.types.includes(STEP_DRAG) ? 'move' : 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        setOver(false);
        if (!accepts(e)) return;
        e.preventDefault();
        ctx.drop(chain, index, e);
      }}
    />
  );
}

const additive = (e: MouseEvent): boolean => e.shiftKey || e.ctrlKey || e.metaKey;

const lastRunOf = (s: StudioState, ctx: GraphContext) => s.runStats.lastRun[statsKey(ctx.integration, ctx.flow)];

/**
 * One step: a node that selects its YAML, with its counts, and its branches side by side. Drawn
 * again only when what it shows changed (sameStep; its place in the text may move) or the graph's
 * shared context did; its selection, counts and last outcome it reads from the store itself.
 */
export const GraphStep = memo(
  function GraphStep({ step, ctx, itemKey }: { step: OutlineStep; ctx: GraphContext; /** Names the item for a chain measuring its steps (VirtualChain). */ itemKey?: string }) {
    const counts = useStudio((s) => s.runStats.steps[statsKey(ctx.integration, step.path)]);
    const outcome = useStudio((s) => lastRunOf(s, ctx)?.steps[step.path]);
    const taken = useStudio((s) => (step.branches.length > 0 ? takenBranch(step, lastRunOf(s, ctx))?.path : undefined));
    const selected = useStudio((s) => s.graphSelection.includes(step.path));
    const onPath = outcome !== undefined;
    const title = step.name ?? step.block;
    return (
      <li className="graph-item" data-key={itemKey}>
        <div className="graph-node-row">
          <button
            type="button"
            className={`graph-node block-${step.block}${onPath ? ' on-path' : ''}${outcome ? ` last-${outcome}` : ''}${ctx.pausedAt.has(step.path) ? ' paused-here' : ''}${selected ? ' selected' : ''}`}
            data-path={step.path}
            data-on-path={onPath}
            aria-pressed={selected}
            draggable
            onDragStart={(e) => {
              e.dataTransfer.setData(STEP_DRAG, step.path);
              e.dataTransfer.effectAllowed = 'move';
            }}
            aria-label={`${title}${step.name ? ` (${step.block})` : ''}: ${countsLabel(counts)}${onPath ? `; the last message went through (${outcome})` : ''}`}
            onClick={(e) => ctx.select(step.path, additive(e))}
          >
            <span className="node-title">
              <span className="node-block">{step.block}</span>
              {step.name ? <span className="node-name">{step.name}</span> : null}
            </span>
            {step.detail && !step.flowRef ? <span className="node-detail">{step.detail}</span> : null}
            <Counts counts={counts} />
            <TestCoverage hits={ctx.coverage?.get(step.path)} covered={ctx.coverage !== undefined} />
          </button>
          <BreakpointToggle path={step.path} title={title} bp={ctx.breakpoints.get(step.path)} paused={ctx.pausedAt.has(step.path)} ctx={ctx} />
          {step.flowRef ? (
            <button type="button" className="link flow-link" onClick={() => ctx.showFlow(step.flowRef!)} aria-label={`Show flow ${step.flowRef}`}>
              ↪ {step.flowRef}
            </button>
          ) : null}
        </div>
        {step.branches.length > 0 ? (
          <div className="graph-branches" role="group" aria-label={`Branches of ${title}`}>
            {step.branches.map((b) => (
              <Branch key={b.path} branch={b} taken={taken === b.path} ctx={ctx} />
            ))}
          </div>
        ) : null}
      </li>
    );
  },
  (a, b) => a.ctx === b.ctx && a.itemKey === b.itemKey && sameStep(a.step, b.step),
);

function Branch({ branch, taken, ctx }: { branch: OutlineBranch; taken: boolean; ctx: GraphContext }) {
  const label = branch.kind === 'default' && branch.steps.length === 0 && !branch.span ? 'otherwise' : branch.label;
  // A case is selected as itself (`…cases[0]`, to remove it); a default or a lock body as its chain.
  const selectPath = branch.kind === 'case' ? branch.path.replace(/\.steps$/, '') : branch.path;
  const selected = useStudio((s) => s.graphSelection.includes(selectPath) || s.graphSelection.includes(branch.path));
  return (
    <div className="graph-branch" data-taken={taken} aria-label={`${label}${taken ? ' (taken by the last message)' : ''}`} role="group">
      <button type="button" className={`branch-label${selected ? ' selected' : ''}`} aria-pressed={selected} data-path={selectPath} onClick={(e) => ctx.select(selectPath, additive(e))}>
        {label}
      </button>
      <TestCoverage hits={branchHits(branch, ctx.branchCoverage)} covered={ctx.branchCoverage !== undefined && branchHits(branch, ctx.branchCoverage) !== undefined} />
      <GraphChain chain={branch.path} steps={branch.steps} ctx={ctx} empty={branch.kind === 'default' ? 'passes the message on' : 'no steps'} />
    </div>
  );
}

/** The dot in a node's corner: a breakpoint (or logpoint) on the step, set and removed by a click. */
function BreakpointToggle({ path, title, bp, paused, ctx }: { path: string; title: string; bp: StudioBreakpoint | undefined; paused: boolean; ctx: GraphContext }) {
  const kind = bp?.logMessage ? 'logpoint' : 'breakpoint';
  const state = bp ? `${kind}${bp.enabled && bp.verified ? '' : ' (off)'}${bp.condition ? ` when ${bp.condition}` : ''}` : 'no breakpoint';
  return (
    <button
      type="button"
      className={`graph-bp-toggle${bp ? ` set${bp.logMessage ? ' log' : ''}${bp.enabled && bp.verified ? '' : ' off'}` : ''}`}
      aria-pressed={bp !== undefined}
      aria-label={`Breakpoint on ${title}`}
      title={`${state}${paused ? '; a run is paused before this step' : ''}. Click to ${bp ? 'remove it' : 'pause runs before this step'}.`}
      onClick={() => ctx.toggleBreakpoint(path)}
    />
  );
}

/** Whether the flow tests went through a step (after the Tests panel ran them). */
function TestCoverage({ hits, covered }: { hits: number | undefined; covered: boolean }) {
  if (!covered) return null;
  return hits ? (
    <span className="coverage-badge covered" title="the flow tests went through this step">
      tested ×{hits}
    </span>
  ) : (
    <span className="coverage-badge uncovered" title="no flow test went through this step">
      not tested
    </span>
  );
}

/** The flow tests' count for a switch branch (`…switch.cases[N].steps` or `…switch.default`), if the tests saw that switch. */
function branchHits(branch: OutlineBranch, coverage: ReadonlyMap<string, number> | undefined): number | undefined {
  if (!coverage) return undefined;
  const caseOf = /^(.*)\.switch\.cases\[(\d+)\]\.steps$/.exec(branch.path);
  if (caseOf) return coverage.get(`${caseOf[1]}|case ${caseOf[2]}`);
  const defaultOf = /^(.*)\.switch\.default$/.exec(branch.path);
  if (defaultOf) return coverage.get(`${defaultOf[1]}|default`) ?? coverage.get(`${defaultOf[1]}|no case (passes unchanged)`);
  return undefined;
}
