import { useState } from 'react';
import type { TagSummary } from '../../../shared/resource-types.ts';
import { resourceCalls } from '../../api/resource-calls.ts';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { DeployDialog } from './DeployDialog.tsx';
import { DeploymentsList } from './DeploymentsList.tsx';
import { TagDiffView } from './TagDiffView.tsx';
import { messageOf, when } from './when.ts';

/**
 * Version tags of an integration (a frozen copy of its definitions and resources), their diff
 * against the working copy, and local deployments of them.
 */
export function VersionsTab({ integration }: { integration: string }) {
  const tags = useLiveQuery(() => resourceCalls.listTags(integration), `tags\0${integration}`, { intervalMs: 0, live: false });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [diffing, setDiffing] = useState<string | undefined>();
  const [deploying, setDeploying] = useState<TagSummary | undefined>();
  const [deployments, setDeployments] = useState(0);

  const create = async (): Promise<void> => {
    try {
      await resourceCalls.createTag(integration, name.trim(), description);
      setName('');
      setDescription('');
      setError(undefined);
      tags.refresh();
    } catch (err) {
      setError(messageOf(err));
    }
  };

  return (
    <div className="rs-scroll">
      <form
        className="rs-form"
        aria-label="New tag"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <div className="rs-row">
          <label>
            Tag
            <input value={name} placeholder="v1.0.0" onChange={(e) => setName(e.currentTarget.value)} />
          </label>
          <label style={{ flex: 1 }}>
            Description
            <input value={description} placeholder="What changed" onChange={(e) => setDescription(e.currentTarget.value)} />
          </label>
          <button type="submit" className="primary" disabled={name.trim() === ''}>
            Create tag
          </button>
        </div>
        <p className="rs-hint muted">A tag freezes the saved definitions and every resource; later edits never reach it or its deployments.</p>
        {error ? (
          <p className="rs-message rs-error" role="alert">
            {error}
          </p>
        ) : null}
      </form>

      {tags.data && tags.data.length > 0 ? (
        <table className="rs-table" aria-label="Tags">
          <thead>
            <tr>
              <th>Tag</th>
              <th>Created</th>
              <th>Snapshot</th>
              <th>Frozen</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {[...tags.data].reverse().map((t) => (
              <tr key={t.tag} aria-label={t.tag}>
                <td>
                  <span className="version-tag" title="A version tag: a frozen copy you named (working-copy versions read v1, v2… with a dashed border)">
                    tag
                  </span>{' '}
                  <strong>{t.tag}</strong>
                  {t.description ? <div className="rs-hint muted">{t.description}</div> : null}
                </td>
                <td>
                  {when(t.createdAt)} <span className="muted">by {t.createdBy}</span>
                </td>
                <td>
                  <code>{t.snapshotId}</code>
                </td>
                <td className="rs-hint">
                  {t.definitions.length} definition{t.definitions.length === 1 ? '' : 's'}, {t.resources.length} resource{t.resources.length === 1 ? '' : 's'}
                </td>
                <td>
                  <span className="rs-row">
                    <button type="button" aria-pressed={diffing === t.tag} onClick={() => setDiffing(diffing === t.tag ? undefined : t.tag)}>
                      Diff
                    </button>
                    <button type="button" onClick={() => setDeploying(t)}>
                      Deploy…
                    </button>
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">{tags.error ?? (tags.data ? 'No tags yet.' : 'Loading…')}</p>
      )}
      {diffing ? <TagDiffView key={diffing} integration={integration} tag={diffing} /> : null}
      <DeploymentsList integration={integration} nonce={deployments} />
      {deploying ? (
        <DeployDialog
          integration={integration}
          tag={deploying}
          onClose={() => setDeploying(undefined)}
          onDeployed={() => {
            setDeploying(undefined);
            setDeployments((n) => n + 1);
          }}
        />
      ) : null}
    </div>
  );
}
