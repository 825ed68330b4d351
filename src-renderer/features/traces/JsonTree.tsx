import { createContext, useContext, useState, type ReactNode } from 'react';
import type { TruncatedValue } from '../../../shared/trace-types.ts';

type Path = Array<string | number>;

interface TreeContext {
  /** Fetches the whole value behind a truncated one. */
  loadFull?: (path: Path) => Promise<unknown>;
  full: Map<string, unknown>;
  setFull(key: string, value: unknown): void;
  /** Paths (JSON-encoded) to highlight as changed. */
  changed?: ReadonlySet<string>;
}

const Ctx = createContext<TreeContext>({ full: new Map(), setFull: () => {} });

export function isTruncated(v: unknown): v is TruncatedValue {
  return typeof v === 'object' && v !== null && '$truncated' in v && Object.keys(v).length === 1;
}

/**
 * A JSON value as a collapsible tree. Strings and lists the backend cut short show their start
 * and a "Show all" button that fetches the whole value; changed paths can be highlighted.
 */
export function JsonTree({ value, loadFull, changed, label }: { value: unknown; loadFull?: (path: Path) => Promise<unknown>; changed?: ReadonlySet<string>; label?: string }) {
  const [full, setFullMap] = useState(() => new Map<string, unknown>());
  const ctx: TreeContext = { loadFull, full, changed, setFull: (k, v) => setFullMap((m) => new Map(m).set(k, v)) };
  return (
    <Ctx.Provider value={ctx}>
      <div className="json-tree" role="tree" aria-label={label}>
        <JsonNode value={value} path={[]} depth={0} />
      </div>
    </Ctx.Provider>
  );
}

function JsonNode({ name, value, path, depth }: { name?: string | number; value: unknown; path: Path; depth: number }) {
  const ctx = useContext(Ctx);
  const key = JSON.stringify(path);
  const shown = ctx.full.has(key) ? ctx.full.get(key) : value;
  const [open, setOpen] = useState(depth < 3);
  const highlight = ctx.changed?.has(key) ? ' json-changed' : '';
  const label = name === undefined ? null : <span className="json-key">{typeof name === 'number' ? name : JSON.stringify(name)}: </span>;

  if (isTruncated(shown)) {
    return (
      <div className={`json-row${highlight}`} role="treeitem">
        {label}
        <TruncatedView marker={shown} onLoaded={(v) => ctx.setFull(key, v)} />
      </div>
    );
  }
  if (shown === null || typeof shown !== 'object') {
    return (
      <div className={`json-row${highlight}`} role="treeitem">
        {label}
        <Scalar value={shown} />
      </div>
    );
  }
  const entries: Array<[string | number, unknown]> = Array.isArray(shown) ? shown.map((v, i) => [i, v]) : Object.entries(shown);
  const brackets = Array.isArray(shown) ? ['[', ']'] : ['{', '}'];
  const summary = Array.isArray(shown) ? `${entries.length} item${entries.length === 1 ? '' : 's'}` : `${entries.length} key${entries.length === 1 ? '' : 's'}`;
  return (
    <div className={`json-branch${highlight}`} role="treeitem" aria-expanded={open}>
      <button type="button" className="json-toggle" onClick={() => setOpen(!open)} aria-label={open ? 'Collapse' : 'Expand'}>
        {open ? '▾' : '▸'}
      </button>
      {label}
      {open ? (
        <>
          <span className="json-punct">{brackets[0]}</span>
          <div className="json-children" role="group">
            {entries.map(([k, v]) => (
              <JsonNode key={k} name={k} value={v} path={[...path, k]} depth={depth + 1} />
            ))}
          </div>
          <span className="json-punct">{brackets[1]}</span>
        </>
      ) : (
        <span className="json-punct">
          {brackets[0]} {summary} {brackets[1]}
        </span>
      )}
    </div>
  );
}

function Scalar({ value }: { value: unknown }): ReactNode {
  if (typeof value === 'string') return <span className="json-string">{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span className="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="json-bool">{String(value)}</span>;
  return <span className="json-null">null</span>;
}

function TruncatedView({ marker, onLoaded }: { marker: TruncatedValue; onLoaded(value: unknown): void }) {
  const ctx = useContext(Ctx);
  const [state, setState] = useState<'idle' | 'loading' | string>('idle');
  const { preview, length, path } = marker.$truncated;
  const isText = typeof preview === 'string';
  const load = (): void => {
    if (!ctx.loadFull) return;
    setState('loading');
    ctx.loadFull(path).then(onLoaded, (err: unknown) => setState(err instanceof Error ? err.message : String(err)));
  };
  return (
    <span className="json-truncated">
      {isText ? <span className="json-string">{JSON.stringify(preview).slice(0, -1)}…</span> : <span className="json-punct">[{(preview as unknown[]).length} of {length} items…]</span>}
      <span className="muted"> ({length.toLocaleString()} {isText ? 'characters' : 'items'}) </span>
      {ctx.loadFull ? (
        <button type="button" className="link" onClick={load} disabled={state === 'loading'}>
          {state === 'loading' ? 'Loading…' : 'Show all'}
        </button>
      ) : null}
      {state !== 'idle' && state !== 'loading' ? <span className="error"> {state}</span> : null}
    </span>
  );
}
