import { useMemo, useState } from 'react';
import type { DesignComponent, DesignSetting } from '../../../../shared/flow-design.ts';
import { useStudio } from '../../../store/studio-store.ts';
import { editorCommands } from '../editor-commands.ts';
import { addToShownFlow } from '../graph/graph-actions.ts';
import { dragBlock } from '../graph/GraphStep.tsx';
import { ReferenceText } from './ReferenceText.tsx';

const GROUPS: Array<[DesignComponent['kind'], string]> = [
  ['block', 'Blocks'],
  ['source', 'Sources'],
  ['connector', 'Connectors'],
];

/**
 * Every registered component with its reference; Insert writes a snippet that loads at the
 * cursor. A block is also dragged onto the graph (the pane shows the graph as the drag starts and
 * comes back if nothing took it), or added to it with its Add to graph button.
 */
export function BlockPalette() {
  const reference = useStudio((s) => s.designReference);
  const setSidePane = useStudio((s) => s.setSidePane);
  const [query, setQuery] = useState('');
  const [expanded, setExpanded] = useState<string | undefined>();
  const [message, setMessage] = useState<string | undefined>();
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (reference?.components ?? []).filter((c) => !q || c.type.includes(q) || c.summary.toLowerCase().includes(q));
  }, [reference, query]);
  if (!reference) return <p className="muted pane-empty">Loading the component reference…</p>;

  const insert = async (c: DesignComponent): Promise<void> => {
    const commands = editorCommands();
    const why = commands ? await commands.insertComponent(c) : 'open a definition file first';
    setMessage(why ? `Could not insert ${c.type}: ${why}` : `Inserted ${c.type}.`);
  };

  return (
    <div className="palette-pane" role="region" aria-label="Block palette">
      <input className="palette-search" type="search" placeholder="Filter components" aria-label="Filter components" value={query} onChange={(e) => setQuery(e.target.value)} />
      {message ? (
        <p className="palette-message muted" role="status">
          {message}
        </p>
      ) : null}
      {GROUPS.map(([kind, title]) => {
        const items = shown.filter((c) => c.kind === kind);
        if (items.length === 0) return null;
        return (
          <section key={kind} aria-label={title}>
            <h3 className="palette-group">{title}</h3>
            <ul className="palette-list">
              {items.map((c) => {
                const id = `${c.kind}:${c.type}`;
                const open = expanded === id;
                const block = c.kind === 'block';
                return (
                  <li key={id} className="palette-item" aria-label={`${c.kind} ${c.type}`}>
                    <div
                      className="palette-item-head"
                      draggable={block}
                      title={block ? 'Drag onto the graph' : undefined}
                      onDragStart={
                        block
                          ? (e) => {
                              dragBlock(e, c.type);
                              // After the drag has begun: changing the page inside dragstart cancels it.
                              setTimeout(() => setSidePane('graph'));
                            }
                          : undefined
                      }
                      onDragEnd={block ? (e) => e.dataTransfer.dropEffect === 'none' && setSidePane('palette') : undefined}
                    >
                      <button type="button" className="palette-toggle" aria-expanded={open} onClick={() => setExpanded(open ? undefined : id)}>
                        <code>{c.type}</code> <span className="muted">{c.summary}</span>
                      </button>
                      {block ? (
                        <button
                          type="button"
                          onClick={() => addToShownFlow(c) && setSidePane('graph')}
                          aria-label={`Add block ${c.type} to the graph`}
                          title="Add to the flow on the graph, after its selected step"
                        >
                          + Graph
                        </button>
                      ) : null}
                      <button type="button" onClick={() => void insert(c)} aria-label={`Insert ${c.kind} ${c.type}`} title="Insert at the cursor">
                        Insert
                      </button>
                    </div>
                    {open ? <ComponentReference component={c} /> : null}
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

function ComponentReference({ component }: { component: DesignComponent }) {
  const rows = Object.entries(component.settings).filter(([, s]) => !s.hidden);
  return (
    <div className="component-reference">
      <ReferenceText text={component.description ?? component.summary} />
      {component.connectorType ? <p className="muted">Attaches to a {component.connectorType} connector.</p> : null}
      {rows.length > 0 ? (
        <table className="settings-table">
          <thead>
            <tr>
              <th>Setting</th>
              <th>Type</th>
              <th>Default</th>
              <th>What it is</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([name, s]) => (
              <tr key={name}>
                <td>
                  <code>{name}</code>
                  {s.required ? <span className="required" title="required"> *</span> : null}
                </td>
                <td>{typeLabel(s)}</td>
                <td>{s.default === undefined ? '' : <code>{typeof s.default === 'string' ? s.default : JSON.stringify(s.default)}</code>}</td>
                <td>
                  <ReferenceText text={s.description} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {component.example ? <pre className="component-example">{component.example}</pre> : null}
    </div>
  );
}

function typeLabel(s: DesignSetting): string {
  if (s.type === 'string' && s.enum) return s.enum.join(' | ');
  if (s.type === 'string' && s.connectorType) return `${s.connectorType} connector`;
  if (s.type === 'list' && s.items) return `list of ${typeLabel(s.items)}`;
  if (s.type === 'map' && s.values) return `map of ${typeLabel(s.values)}`;
  return s.type === 'cel' ? 'CEL' : s.type;
}
