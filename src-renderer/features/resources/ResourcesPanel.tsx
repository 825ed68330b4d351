import { EmptyState } from '../../components/EmptyState.tsx';
import { PanelHeader } from '../../components/PanelHeader.tsx';
import { useStudio } from '../../store/studio-store.ts';

/** The resource files (env files, templates) of each integration in the workspace. */
export function ResourcesPanel() {
  const integrations = useStudio((s) => s.integrations);
  const withResources = integrations.filter((i) => i.resourceFiles.length > 0);
  return (
    <section className="panel" aria-labelledby="panel-title">
      <PanelHeader title="Resources" />
      {withResources.length === 0 ? (
        <EmptyState title="No resources yet">
          Env files and templates live in an integration folder next to its definitions, e.g. env/local.env or template/reply.txt.
        </EmptyState>
      ) : (
        withResources.map((i) => (
          <div key={i.id} className="request-group">
            <h3>{i.name}</h3>
            <ul className="file-list">
              {i.resourceFiles.map((f) => (
                <li key={f}>
                  <code>{f}</code>
                </li>
              ))}
            </ul>
          </div>
        ))
      )}
    </section>
  );
}
