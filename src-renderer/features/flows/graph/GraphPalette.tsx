import { useId, useMemo, useRef, useState } from 'react';
import { useStudio } from '../../../store/studio-store.ts';
import type { OutlineFlow } from '../analysis/outline-types.ts';
import { insertPlace } from './graph-actions.ts';
import { insertBlock } from './graph-edit.ts';
import { dragBlock } from './GraphStep.tsx';
import { useHiddenChipCount } from './hidden-chip-count.ts';

/**
 * The blocks of the component reference as chips above the graph: drag one to a place between
 * steps, or click it (Enter) to insert it after the selected step, first in a selected branch,
 * or at the end of the flow.
 *
 * The strip shows whole rows only, two of them unless opened (then up to eight, scrolling a row
 * at a time): a row cut in half read as a broken layout, and nothing said that more blocks lay
 * below. "+N more" names how many are out of sight and opens the strip; the filter narrows it.
 */
export function GraphPalette({ flow }: { flow: OutlineFlow }) {
  const reference = useStudio((s) => s.designReference);
  const [query, setQuery] = useState('');
  const blocks = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (reference?.components ?? []).filter((c) => c.kind === 'block' && (!q || c.type.includes(q) || c.summary.toLowerCase().includes(q)));
  }, [reference, query]);
  const [open, setOpen] = useState(false);
  const chips = useRef<HTMLDivElement>(null);
  const hidden = useHiddenChipCount(chips, `${open} ${blocks.map((c) => c.type).join(' ')}`);
  const chipsId = useId();
  if (!reference) return null;
  return (
    <div className="graph-palette" role="toolbar" aria-label="Blocks to add">
      <div className="graph-palette-head">
        <input className="graph-palette-filter" type="search" placeholder="Add a step…" aria-label="Filter blocks to add" value={query} onChange={(e) => setQuery(e.target.value)} />
        {open && hidden > 0 ? <span className="muted graph-palette-below">{hidden} more: scroll</span> : null}
        {hidden > 0 || open ? (
          <button type="button" className="link graph-palette-more" aria-expanded={open} aria-controls={chipsId} onClick={() => setOpen(!open)}>
            {open ? 'fewer' : `+${hidden} more`}
          </button>
        ) : null}
      </div>
      <div className="graph-palette-chips" id={chipsId} ref={chips} data-open={open}>
        {blocks.map((c) => (
          <button
            key={c.type}
            type="button"
            className="palette-chip"
            draggable
            title={`${c.summary}\nDrag onto the graph, or click to add after the selected step.`}
            aria-label={`Add block ${c.type}`}
            onDragStart={(e) => dragBlock(e, c.type)}
            onClick={() => insertBlock(c, insertPlace(flow))}
          >
            {c.type}
          </button>
        ))}
      </div>
    </div>
  );
}
