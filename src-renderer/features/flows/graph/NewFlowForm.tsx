import { useState, type FormEvent } from 'react';
import { addConnector, addFlow } from '../../../../shared/flow-edits/index.ts';
import { useStudio } from '../../../store/studio-store.ts';
import type { DefinitionOutline } from '../analysis/outline-types.ts';
import { editOnGraph, requiredSettings, type GraphEdit } from './graph-edit.ts';

const NO_SOURCE = '';

/**
 * Adds a flow with its source on the graph; a source whose connector the file lacks brings one
 * (an http connector on a free loopback port).
 */
export function NewFlowForm({ outline, onDone }: { outline: DefinitionOutline; onDone?(): void }) {
  const reference = useStudio((s) => s.designReference);
  const [name, setName] = useState('');
  const [source, setSource] = useState('http');
  const sources = (reference?.components ?? []).filter((c) => c.kind === 'source');
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const flow = name.trim();
    if (!flow) return;
    const spec = sources.find((s) => s.type === source);
    const known = { outline, flow };
    const edits: GraphEdit[] = [];
    if (spec?.connectorType && !outline.connectors.some((c) => c.type === spec.connectorType)) {
      const connector = reference?.components.find((c) => c.kind === 'connector' && c.type === spec.connectorType);
      const settings = connector ? requiredSettings(connector.settings, known) : {};
      // A studio connector listens on loopback and lets the OS pick the port.
      const extra = spec.connectorType === 'http' ? { host: '127.0.0.1', port: 0 } : {};
      edits.push((t) => addConnector(t, spec.connectorType!, { type: spec.connectorType, ...settings, ...extra }));
    }
    const sourceSettings = spec ? { type: spec.type, ...requiredSettings(spec.settings, known) } : undefined;
    if (sourceSettings && 'connector' in sourceSettings) delete (sourceSettings as Record<string, unknown>).connector;
    edits.push((t) => addFlow(t, flow, sourceSettings));
    if (editOnGraph(...edits)) {
      useStudio.getState().setGraphFlow(flow);
      useStudio.getState().setGraphSelection([`flows.${flow}.source`]);
      setName('');
      onDone?.();
    }
  };
  return (
    <form className="new-flow-form" onSubmit={submit} aria-label="New flow">
      <input aria-label="New flow name" placeholder="flow-name" value={name} onChange={(e) => setName(e.target.value)} pattern="[A-Za-z0-9_-]+" required />
      <select aria-label="Source of the new flow" value={source} onChange={(e) => setSource(e.target.value)}>
        {sources.map((s) => (
          <option key={s.type} value={s.type}>
            {s.type}
          </option>
        ))}
        <option value={NO_SOURCE}>none (called by flow-ref)</option>
      </select>
      <button type="submit">Add flow</button>
    </form>
  );
}
