import { resourceCalls } from '../../api/resource-calls.ts';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { useStudio } from '../../store/studio-store.ts';
import { NewResourceForm } from './NewResourceForm.tsx';
import { ResourceDetail } from './ResourceDetail.tsx';
import { ResourceTree } from './ResourceTree.tsx';

/** The resources of an integration as a tree, a form to add one, and the open one in the editor. */
export function FilesView({ integration }: { integration: string }) {
  // The list is read again whenever the workspace reports other files (also edits from outside).
  const files = useStudio((s) => s.integrations.find((i) => i.id === integration)?.resourceFiles.join('\n') ?? '');
  const open = useStudio((s) => s.openResource);
  const setOpen = useStudio((s) => s.setOpenResource);
  const list = useLiveQuery(() => resourceCalls.listResources(integration), `${integration}\0${files}`, { intervalMs: 0, live: false });
  const entries = list.data ?? [];
  const entry = entries.find((e) => e.kind === open?.kind && e.name === open.name);

  return (
    <div className="rs-files">
      <div className="rs-side">
        <ResourceTree entries={entries} open={open} onOpen={(e) => setOpen({ kind: e.kind, name: e.name })} />
        <NewResourceForm
          integration={integration}
          onCreated={(e) => {
            list.refresh();
            setOpen({ kind: e.kind, name: e.name });
          }}
        />
        {list.error ? <p className="rs-error rs-hint">{list.error}</p> : null}
      </div>
      {entry ? (
        <ResourceDetail
          integration={integration}
          entry={entry}
          onRenamed={(e) => {
            list.refresh();
            setOpen({ kind: e.kind, name: e.name });
          }}
          onDeleted={() => {
            list.refresh();
            setOpen(undefined);
          }}
        />
      ) : (
        <div className="empty-state">
          <h3>{open ? 'Opening…' : 'Pick a resource or create one'}</h3>
          <p>
            Env files (<code>env/…</code>) fold into the environment of every run, a later file overriding an earlier one; templates (<code>template/…</code>) are
            rendered by the template block and <code>templateResource()</code>.
          </p>
        </div>
      )}
    </div>
  );
}
