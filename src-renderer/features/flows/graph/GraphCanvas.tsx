import { useEffect, useRef, useState, type PointerEvent, type ReactNode, type RefObject } from 'react';

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
            {children}
          </div>
        </div>
        {steps > MINIMAP_FROM_STEPS ? <GraphMinimap canvas={canvas} content={content} flowName={flowName} zoom={zoom} steps={steps} /> : null}
      </div>
    </div>
  );
}

interface MiniNode {
  top: number;
  left: number;
  width: number;
  height: number;
  path: string;
}

/** Every node as a small box, scaled to the minimap's height, with the visible part framed; a click scrolls there. */
function GraphMinimap({ canvas, content, flowName, zoom, steps }: { canvas: RefObject<HTMLDivElement | null>; content: RefObject<HTMLDivElement | null>; flowName: string; zoom: number; steps: number }) {
  const box = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<{ nodes: MiniNode[]; width: number; height: number; top: number; left: number; shownW: number; shownH: number }>();

  useEffect(() => {
    const el = canvas.current;
    const inner = content.current;
    if (!el || !inner) return;
    let frame = 0;
    const measure = (): void => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const c = inner.getBoundingClientRect();
        // The flow's own steps only (a step's box holds its branches): measuring nodes inside an
        // off-screen step would make the browser lay out what content-visibility lets it skip.
        const nodes = [...inner.querySelectorAll<HTMLElement>(':scope > .graph-source, :scope > .graph-chain > .graph-item, :scope > .graph-error-chain > .graph-chain > .graph-item')].map((n) => {
          const r = n.getBoundingClientRect();
          return { top: r.top - c.top, left: r.left - c.left, width: r.width, height: r.height, path: n.querySelector<HTMLElement>('[data-path]')?.dataset.path ?? '' };
        });
        setView({ nodes, width: c.width, height: c.height, top: el.scrollTop, left: el.scrollLeft, shownW: el.clientWidth, shownH: el.clientHeight });
      });
    };
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    const resize = new ResizeObserver(measure);
    resize.observe(inner);
    return () => {
      cancelAnimationFrame(frame);
      el.removeEventListener('scroll', measure);
      resize.disconnect();
    };
  }, [canvas, content, zoom, steps]);

  const mapH = box.current?.clientHeight ?? 200;
  const scale = view ? mapH / Math.max(view.height, 1) : 0;
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
      {view
        ? view.nodes.map((n) => <span key={n.path || `${n.top}`} className="minimap-node" style={{ top: n.top * scale, left: n.left * scale, width: Math.max(2, n.width * scale), height: Math.max(1, n.height * scale) }} />)
        : null}
      {view ? <span className="minimap-view" style={{ top: view.top * scale, left: view.left * scale, width: view.shownW * scale, height: view.shownH * scale }} /> : null}
    </div>
  );
}
