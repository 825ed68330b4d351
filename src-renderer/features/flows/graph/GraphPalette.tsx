import { useMemo, useState } from 'react';
import { useStudio } from '../../../store/studio-store.ts';
import type { OutlineFlow } from '../analysis/outline-types.ts';
import { insertPlace } from './graph-actions.ts';
import { insertBlock } from './graph-edit.ts';
import { dragBlock } from './GraphStep.tsx';

/**
 * The blocks of the component reference as chips above the graph: drag one to a place between
 * steps, or click it (Enter) to insert it after the selected step, first in a selected branch,
 * or at the end of the flow.
 */
export function GraphPalette({ flow }: { flow: OutlineFlow }) {
  const reference = useStudio((s) => s.designReference);
  const [query, setQuery] = useState('');
  const blocks = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (reference?.components ?? []).filter((c) => c.kind === 'block' && (!q || c.type.includes(q) || c.summary.toLowerCase().includes(q)));
  }, [reference, query]);
  if (!reference) return null;
  return (
    <div className="graph-palette" role="toolbar" aria-label="Blocks to add">
      <input className="graph-palette-filter" type="search" placeholder="Add a step…" aria-label="Filter blocks to add" value={query} onChange={(e) => setQuery(e.target.value)} />
      <div className="graph-palette-chips">
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
