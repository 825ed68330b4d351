import { useEffect, useState } from 'react';
import type { Binding, DeploymentSummary, EnvironmentView, TagSummary } from '../../../shared/resource-types.ts';
import { resourceCalls } from '../../api/resource-calls.ts';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { BindingFields, bindingOf, draftOf, type BindingDraft } from './BindingFields.tsx';
import { Dialog } from './Dialog.tsx';
import { EnvironmentTable } from './EnvironmentTable.tsx';
import { messageOf } from './when.ts';

/**
 * Deploys a tag locally: every variable the tag declares, marked when a frozen env resource
 * already satisfies it, a binding for each, and the resulting environment shown live. The
 * platform refuses a deploy that leaves a required variable unbound, and says which.
 */
export function DeployDialog({ integration, tag, onClose, onDeployed }: { integration: string; tag: TagSummary; onClose: () => void; onDeployed: (d: DeploymentSummary) => void }) {
  const secrets = useLiveQuery(() => resourceCalls.listSecrets(), 'secrets', { intervalMs: 0, live: false });
  const [id, setId] = useState(`${integration}-${tag.tag}`.replace(/[^A-Za-z0-9._-]/g, '-'));
  const [drafts, setDrafts] = useState<Record<string, BindingDraft>>(() => Object.fromEntries(tag.variables.map((v) => [v.name, draftOf(undefined, [])])));
  const [view, setView] = useState<EnvironmentView | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [deploying, setDeploying] = useState(false);
  const list = secrets.data ?? [];
  const bindings: Record<string, Binding> = {};
  for (const [name, d] of Object.entries(drafts)) {
    const b = bindingOf(d, list);
    if (b) bindings[name] = b;
  }
  const bindingsKey = JSON.stringify(bindings);

  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      resourceCalls.environmentView({ kind: 'tag', integration, tag: tag.tag, bindings: JSON.parse(bindingsKey) as Record<string, Binding> }).then(
        (v) => current && setView(v),
        (err: unknown) => current && setError(messageOf(err)),
      );
    }, 120);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [integration, tag.tag, bindingsKey]);

  const deploy = async (): Promise<void> => {
    setDeploying(true);
    try {
      const d = await resourceCalls.deployTag({ deployment: id, integration, tag: tag.tag, bindings });
      onDeployed(d);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setDeploying(false);
    }
  };

  const byName = new Map(tag.variables.map((v) => [v.name, v]));
  return (
    <Dialog title={`Deploy ${integration} ${tag.tag} locally`} onClose={onClose}>
      <p className="rs-hint muted">
        Snapshot <code>{tag.snapshotId}</code>: the runtime reads the tag&apos;s frozen definitions and resources, never the working copy.
      </p>
      <label className="rs-hint muted">
        Deployment id
        <input aria-label="Deployment id" value={id} onChange={(e) => setId(e.currentTarget.value)} />
      </label>
      {view ? (
        <EnvironmentTable
          view={view}
          binding={(v) => {
            const declared = byName.get(v.name);
            return (
              <div>
                <BindingFields
                  name={v.name}
                  secret={v.secret}
                  draft={drafts[v.name] ?? draftOf(undefined, list)}
                  secrets={list}
                  onChange={(d) => setDrafts((all) => ({ ...all, [v.name]: d }))}
                />
                {declared && declared.satisfiedBy.length > 0 ? (
                  <div className="rs-hint rs-ok">satisfied by frozen env/{declared.satisfiedBy.join(', env/')}</div>
                ) : declared?.required ? (
                  <div className="rs-hint rs-warn">needs a binding</div>
                ) : null}
              </div>
            );
          }}
        />
      ) : (
        <p className="muted">Reading the tag…</p>
      )}
      {error ? (
        <p className="rs-message rs-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="rs-dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={deploying} onClick={() => void deploy()}>
          {deploying ? 'Deploying…' : 'Deploy'}
        </button>
      </div>
    </Dialog>
  );
}
