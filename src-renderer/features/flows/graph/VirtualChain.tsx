import { createContext, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useStudio } from '../../../store/studio-store.ts';
import type { OutlineStep } from '../analysis/outline-types.ts';
import { chainOffsets, chainWindow, estimatedHeight } from './chain-window.ts';
import { DropGap, GraphStepWithGap, stepKeys, type GraphContext } from './GraphStep.tsx';

/** The graph's scrolling area as the chain drawn in it needs it, and where the chain tells the minimap its layout. */
export interface GraphViewport {
  canvas: RefObject<HTMLDivElement | null>;
  zoom: number;
  /** Where each step of the flow's chain is (content pixels from the chain's top), for the minimap. */
  publish(layout: ChainLayout): void;
}

export interface ChainLayout {
  /** The chain's top in the content. */
  top: number;
  /** `offsets[i]`: where step i starts; the last: the chain's height. */
  offsets: readonly number[];
  paths: readonly string[];
}

export const GraphViewportContext = createContext<GraphViewport | undefined>(undefined);

/** Drawn above and below the view, so a short scroll or a drag near the edge finds nodes already there. */
const OVERSCAN_PX = 600;
/** A drop place between two steps (`.graph-gap`), part of the height of the step above it. */
const GAP_PX = 4;

/**
 * The flow's own chain of steps, drawing only those in or near the view (as VirtualList does for
 * lists): a step's height is measured once drawn (ResizeObserver, so no layout is read after a
 * change in the same frame) and guessed before; spacers stand for the others. A step selected out
 * of view (from the keys or the text cursor) is scrolled to.
 */
export function VirtualChain({ chain, steps, ctx, empty }: { chain: string; steps: OutlineStep[]; ctx: GraphContext; empty: string }) {
  const viewport = useContext(GraphViewportContext);
  const list = useRef<HTMLOListElement>(null);
  const keys = useMemo(() => stepKeys(steps), [steps]);
  /** Measured heights by step key: a moved step keeps its own. */
  const heights = useRef(new Map<string, number>());
  const [measured, setMeasured] = useState(0);
  const [view, setView] = useState({ top: 0, bottom: 1_000 });
  const offsets = useMemo(() => chainOffsets(steps.map((s, i) => heights.current.get(keys[i]) ?? estimatedHeight(s))), [steps, keys, measured]);
  const { first, last } = chainWindow(offsets, view.top - OVERSCAN_PX, view.bottom + OVERSCAN_PX);
  const chainTop = useRef(0);

  // The view, in the chain's own pixels, from the canvas's scroll position: read in the scroll
  // handler and on a resize, where the layout is current.
  const canvas = viewport?.canvas;
  const zoom = viewport?.zoom ?? 1;
  useEffect(() => {
    const el = canvas?.current;
    if (!el) return;
    const update = (): void => {
      chainTop.current = list.current?.offsetTop ?? 0;
      const top = el.scrollTop / zoom - chainTop.current;
      const bottom = top + el.clientHeight / zoom;
      setView((v) => (Math.abs(v.top - top) < 1 && Math.abs(v.bottom - bottom) < 1 ? v : { top, bottom }));
    };
    update();
    el.addEventListener('scroll', update, { passive: true });
    const resize = new ResizeObserver(update);
    resize.observe(el);
    return () => {
      el.removeEventListener('scroll', update);
      resize.disconnect();
    };
  }, [canvas, zoom]);

  // Each drawn step's height as the browser laid it out, delivered after layout.
  const observer = useRef<ResizeObserver | undefined>(undefined);
  const observed = useRef(new Set<Element>());
  // Made before the effect below observes the first drawn items.
  useLayoutEffect(() => {
    const resize = new ResizeObserver((entries) => {
      let changed = false;
      for (const e of entries) {
        const key = (e.target as HTMLElement).dataset.key;
        const height = (e.borderBoxSize[0]?.blockSize ?? e.contentRect.height) + GAP_PX;
        if (!key || height <= GAP_PX) continue;
        if (Math.abs((heights.current.get(key) ?? 0) - height) > 0.5) {
          heights.current.set(key, height);
          changed = true;
        }
      }
      if (changed) setMeasured((m) => m + 1);
    });
    observer.current = resize;
    return () => {
      resize.disconnect();
      observed.current.clear();
    };
  }, []);
  // The drawn items are observed, and no longer once they go (an observed node is kept alive).
  useLayoutEffect(() => {
    const resize = observer.current;
    if (!resize) return;
    const drawnNow = new Set(list.current?.querySelectorAll(':scope > .graph-item') ?? []);
    for (const item of observed.current) {
      if (drawnNow.has(item)) continue;
      resize.unobserve(item);
      observed.current.delete(item);
    }
    for (const item of drawnNow) {
      if (observed.current.has(item)) continue;
      observed.current.add(item);
      resize.observe(item);
    }
  });

  useEffect(() => viewport?.publish({ top: chainTop.current, offsets, paths: steps.map((s) => s.path) }), [viewport, offsets, steps]);

  // A selected step out of view is scrolled to: the keys' ↑/↓ and the text cursor may go there.
  const selected = useStudio((s) => s.graphSelection.at(-1));
  useLayoutEffect(() => {
    const el = canvas?.current;
    if (!el || !selected) return;
    const i = steps.findIndex((s) => selected === s.path || selected.startsWith(`${s.path}.`));
    // A step partly in view stays where it is: a click on a node of a tall switch must not scroll.
    if (i < 0 || (offsets[i + 1] > view.top && offsets[i] < view.bottom)) return;
    el.scrollTop = (chainTop.current + offsets[i]) * zoom - el.clientHeight / 3;
    // Only a new selection scrolls, not a scroll away from it.
  }, [selected]);

  const drawn = [];
  for (let i = first; i < last; i++) drawn.push(<GraphStepWithGap key={keys[i]} step={steps[i]} index={i} chain={chain} ctx={ctx} itemKey={keys[i]} />);
  return (
    <ol className="graph-chain" data-chain={chain} ref={list}>
      {first === 0 ? <DropGap chain={chain} index={0} ctx={ctx} /> : <li className="graph-spacer" aria-hidden="true" style={{ height: offsets[first] + GAP_PX }} />}
      {steps.length === 0 ? <li className="graph-empty muted">{empty}</li> : null}
      {drawn}
      {last < steps.length ? <li className="graph-spacer" aria-hidden="true" style={{ height: offsets[steps.length] - offsets[last] }} /> : null}
    </ol>
  );
}
