import { EmptyState } from '../../components/EmptyState.tsx';
import { PanelHeader } from '../../components/PanelHeader.tsx';
import type { ResourcesTab } from '../../store/resources-slice.ts';
import { useStudio } from '../../store/studio-store.ts';
import { BundleActions } from './BundleActions.tsx';
import { EnvironmentTab } from './EnvironmentTab.tsx';
import { FilesView } from './FilesView.tsx';
import { VersionsTab } from './VersionsTab.tsx';
import './resources.css';

const TABS: Array<[ResourcesTab, string]> = [
  ['files', 'Files'],
  ['environment', 'Environment'],
  ['versions', 'Versions & deploy'],
];

/**
 * An integration's env files and templates, the environment its runs get (and why), its version
 * tags and local deployments, and bundles in and out.
 */
export function ResourcesPanel() {
  const integrations = useStudio((s) => s.integrations);
  const chosen = useStudio((s) => s.resourcesIntegration);
  const setChosen = useStudio((s) => s.setResourcesIntegration);
  const tab = useStudio((s) => s.resourcesTab);
  const setTab = useStudio((s) => s.setResourcesTab);
  const integration = integrations.some((i) => i.id === chosen) ? chosen : integrations[0]?.id;

  return (
    <section className="panel rs-panel" aria-labelledby="panel-title">
      <PanelHeader title="Resources">
        <label className="rs-row">
          <span className="muted">Integration</span>
          <select aria-label="Integration" value={integration ?? ''} onChange={(e) => setChosen(e.currentTarget.value)}>
            {integrations.map((i) => (
              <option key={i.id} value={i.id}>
                {i.name}
              </option>
            ))}
          </select>
        </label>
        <div className="rs-tabs" role="tablist" aria-label="Resources view">
          {TABS.map(([id, label]) => (
            <button key={id} type="button" role="tab" aria-selected={tab === id} onClick={() => setTab(id)}>
              {label}
            </button>
          ))}
        </div>
        <BundleActions integration={integration} />
      </PanelHeader>
      {!integration ? (
        <EmptyState title="No integrations yet">Create one in the Flows panel, or import a bundle.</EmptyState>
      ) : tab === 'files' ? (
        <FilesView key={integration} integration={integration} />
      ) : tab === 'environment' ? (
        <EnvironmentTab key={integration} integration={integration} />
      ) : (
        <VersionsTab key={integration} integration={integration} />
      )}
    </section>
  );
}
