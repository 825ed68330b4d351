import { useEffect, useMemo, useRef, useState, type PointerEvent, type ReactNode, type RefObject } from 'react';
import { GraphViewportContext, type ChainLayout, type GraphViewport } from './VirtualChain.tsx';

const MIN_ZOOM = 0.3;
const MAX_ZOOM = 2;
/** Past this many steps a minimap shows where the view is in the flow. */
export const MINIMAP_FROM_STEPS = 30;

/**
 * The graph's drawing area: scrolls both ways, pans by dragging its background, zooms with the
 * buttons or Ctrl+wheel, and shows a minimap beside it for long flows.
 */
export function GraphCanvas({ steps, flowName, children }: { steps: number; flowName: string; children: ReactNode }) {
  const [zoom, setZoom] = useState(1);
  const canvas = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const pan = useRef<{ x: number; y: number; left: number; top: number } | undefined>(undefined);
  const [layout, setLayout] = useState<ChainLayout>();
  const viewport = useMemo<GraphViewport>(() => ({ canvas, zoom, publish: (next) => setLayout((prev) => (prev && sameLayout(prev, next) ? prev : next)) }), [zoom]);
  const clamp = (z: number): number => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round(z * 10) / 10));

  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    // A non-passive listener: Ctrl+wheel must not also zoom the page.
    const onWheel = (e: WheelEvent): void => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      setZoom((z) => clamp(z * (e.deltaY < 0 ? 1.1 : 1 / 1.1)));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const fit = (): void => {
    const el = canvas.current;
    const inner = content.current;
    if (!el || !inner) return;
    const width = inner.scrollWidth;
    const height = inner.scrollHeight;
    setZoom((z) => clamp(Math.min(1, (el.clientWidth / width) * z, (el.clientHeight / height) * z)));
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>): void => {
    if ((e.target as HTMLElement).closest('button, input, select, a, .graph-node') || e.button !== 0) return;
    const el = canvas.current!;
    pan.current = { x: e.clientX, y: e.clientY, left: el.scrollLeft, top: el.scrollTop };
    el.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>): void => {
    const start = pan.current;
    if (!start) return;
    canvas.current!.scrollLeft = start.left - (e.clientX - start.x);
    canvas.current!.scrollTop = start.top - (e.clientY - start.y);
  };

  return (
    <div className="graph-body">
      <div className="graph-zoom" role="group" aria-label="Zoom">
        <button type="button" aria-label="Zoom out" onClick={() => setZoom((z) => clamp(z - 0.1))}>
          −
        </button>
        <output aria-label="Zoom level">{Math.round(zoom * 100)}%</output>
        <button type="button" aria-label="Zoom in" onClick={() => setZoom((z) => clamp(z + 0.1))}>
          +
        </button>
        <button type="button" onClick={fit} title="Zoom so the whole flow fits">
          Fit
        </button>
      </div>
      <div className="graph-viewport">
        <div
          className="graph-canvas"
          ref={canvas}
          data-testid="graph-canvas"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={() => (pan.current = undefined)}
          onPointerCancel={() => (pan.current = undefined)}
        >
          <div className="graph-content" ref={content} style={{ zoom }}>
            <GraphViewportContext.Provider value={viewport}>{children}</GraphViewportContext.Provider>
          </div>
        </div>
        {steps > MINIMAP_FROM_STEPS ? <GraphMinimap canvas={canvas} layout={layout} flowName={flowName} zoom={zoom} steps={steps} /> : null}
      </div>
    </div>
  );
}

/** The canvas's scroll position and size, and the minimap's height, as last read where the layout is current. */
interface MinimapView {
  top: number;
  shown: number;
  total: number;
  width: number;
  mapH: number;
  mapW: number;
}

/**
 * Every step of the flow as a small box, scaled to the minimap's height, with the visible part
 * framed; a click scrolls there. Drawn on a canvas from the chain's layout (VirtualChain), not
 * from the nodes, which are drawn only near the view; sizes are read in scroll and resize
 * callbacks, never after a change in the same frame.
 */
function GraphMinimap({ canvas, layout, zoom, flowName, steps }: { canvas: RefObject<HTMLDivElement | null>; layout: ChainLayout | undefined; zoom: number; flowName: string; steps: number }) {
  const box = useRef<HTMLDivElement>(null);
  const drawing = useRef<HTMLCanvasElement>(null);
  const [view, setView] = useState<MinimapView>();

  useEffect(() => {
    const el = canvas.current;
    const map = box.current;
    if (!el || !map) return;
    const update = (): void =>
      setView((v) => {
        const next = { top: el.scrollTop, shown: el.clientHeight, total: Math.max(1, el.scrollHeight), width: el.scrollWidth, mapH: map.clientHeight, mapW: map.clientWidth };
        return v && (Object.keys(next) as Array<keyof MinimapView>).every((k) => v[k] === next[k]) ? v : next;
      });
    update();
    el.addEventListener('scroll', update, { passive: true });
    const resize = new ResizeObserver(update);
    resize.observe(el);
    resize.observe(map);
    if (el.firstElementChild) resize.observe(el.firstElementChild);
    return () => {
      el.removeEventListener('scroll', update);
      resize.disconnect();
    };
  }, [canvas]);

  const scale = view ? view.mapH / view.total : 0;
  useEffect(() => {
    const c = drawing.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx || !view || !layout) return;
    const ratio = window.devicePixelRatio || 1;
    c.width = Math.round(view.mapW * ratio);
    c.height = Math.round(view.mapH * ratio);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, view.mapW, view.mapH);
    ctx.fillStyle = getComputedStyle(c).color;
    ctx.globalAlpha = 0.6;
    const inset = 3;
    for (let i = 0; i + 1 < layout.offsets.length; i++) {
      const top = (layout.top + layout.offsets[i] + 14) * zoom * scale;
      const height = Math.max(1, (layout.offsets[i + 1] - layout.offsets[i] - 18) * zoom * scale);
      ctx.fillRect(inset, top, view.mapW - 2 * inset, height);
    }
  }, [layout, view, zoom, scale]);

  return (
    <div
      className="graph-minimap"
      ref={box}
      role="img"
      aria-label={`Minimap of ${flowName}: ${steps} steps`}
      onClick={(e) => {
        const el = canvas.current;
        if (!el || !scale) return;
        const y = e.clientY - e.currentTarget.getBoundingClientRect().top;
        el.scrollTop = y / scale - el.clientHeight / 2;
      }}
    >
      <canvas ref={drawing} className="minimap-nodes" />
      {view ? <span className="minimap-view" style={{ top: view.top * scale, left: 0, right: 0, height: view.shown * scale }} /> : null}
    </div>
  );
}

function sameLayout(a: ChainLayout, b: ChainLayout): boolean {
  return a.top === b.top && a.offsets.length === b.offsets.length && a.offsets.every((o, i) => o === b.offsets[i]);
}
