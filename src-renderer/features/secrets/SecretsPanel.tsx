import { EmptyState } from '../../components/EmptyState.tsx';
import { PanelHeader } from '../../components/PanelHeader.tsx';

/** Cluster secrets of the embedded platform: names only, never values. */
export function SecretsPanel() {
  return (
    <section className="panel" aria-labelledby="panel-title">
      <PanelHeader title="Secrets" />
      <EmptyState title="No secrets yet">
        Secrets are stored encrypted by the embedded platform and bound to variables by name; their values are never shown.
      </EmptyState>
    </section>
  );
}
