import { useEffect, useState } from 'react';
import type { BundleImportPreview } from '../../../shared/resource-types.ts';
import { resourceCalls } from '../../api/resource-calls.ts';
import { useStudio } from '../../store/studio-store.ts';
import { Dialog } from './Dialog.tsx';
import { messageOf } from './when.ts';

const CHANGE_LABEL = { create: 'create', overwrite: 'overwrite', unchanged: 'unchanged', remove: 'remove' } as const;

/**
 * What importing a bundle would do, file by file (create, overwrite, remove, unchanged), into an
 * integration chosen here (a new id creates one); nothing is written until Import.
 */
export function BundleImportDialog({ fileName, base64, defaultTarget, onClose }: { fileName: string; base64: string; defaultTarget: string | undefined; onClose: () => void }) {
  const [target, setTarget] = useState(defaultTarget ?? fileName.replace(/\.tar$/i, ''));
  const [preview, setPreview] = useState<BundleImportPreview | undefined>();
  const [error, setError] = useState<string | undefined>();
  const setResourcesIntegration = useStudio((s) => s.setResourcesIntegration);

  useEffect(() => {
    let current = true;
    setPreview(undefined);
    const timer = setTimeout(() => {
      resourceCalls.previewBundleImport(target, base64).then(
        (p) => {
          if (!current) return;
          setPreview(p);
          setError(undefined);
        },
        (err: unknown) => current && setError(messageOf(err)),
      );
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [target, base64]);

  const apply = async (): Promise<void> => {
    try {
      await resourceCalls.importBundle(target, base64);
      setResourcesIntegration(target);
      onClose();
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const changes = preview?.entries.filter((e) => e.change !== 'unchanged').length ?? 0;
  return (
    <Dialog title={`Import ${fileName}`} onClose={onClose}>
      <label className="rs-hint muted">
        Into the integration
        <input aria-label="Target integration" value={target} onChange={(e) => setTarget(e.currentTarget.value)} />
      </label>
      {preview ? (
        <>
          <p className="rs-hint">
            {preview.exists ? `Replaces the working copy of ${preview.integration}: ` : `Creates the integration ${preview.integration}: `}
            {changes === 0 ? 'nothing changes.' : `${changes} file${changes === 1 ? '' : 's'} change.`}
          </p>
          <table className="rs-table" aria-label="Import preview">
            <thead>
              <tr>
                <th>File</th>
                <th>Change</th>
                <th>Bytes</th>
              </tr>
            </thead>
            <tbody>
              {preview.entries.map((e) => (
                <tr key={e.path} aria-label={e.path}>
                  <td>
                    <code>{e.path}</code>
                  </td>
                  <td className={e.change === 'remove' ? 'rs-error' : e.change === 'overwrite' ? 'rs-warn' : e.change === 'create' ? 'rs-ok' : 'muted'} data-field="change">
                    {CHANGE_LABEL[e.change]}
                  </td>
                  <td>{e.bytes}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : error ? null : (
        <p className="muted">Reading the bundle…</p>
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
        <button type="button" className="primary" disabled={!preview} onClick={() => void apply()}>
          Import
        </button>
      </div>
    </Dialog>
  );
}
