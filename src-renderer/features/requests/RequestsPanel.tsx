import { EmptyState } from '../../components/EmptyState.tsx';
import { PanelHeader } from '../../components/PanelHeader.tsx';
import { useStudio } from '../../store/studio-store.ts';
import { RouteList } from '../flows/RouteList.tsx';

/** The routes of running integrations: where test requests go. */
export function RequestsPanel() {
  const runs = useStudio((s) => s.runs);
  const running = Object.values(runs).filter((r) => r.status === 'running' && r.routes.length > 0);
  return (
    <section className="panel" aria-labelledby="panel-title">
      <PanelHeader title="Requests" />
      {running.length === 0 ? (
        <EmptyState title="No routes to call yet">Run an integration with an http source; its routes and their URLs are listed here.</EmptyState>
      ) : (
        running.map((r) => (
          <div key={r.integration} className="request-group">
            <h3>{r.integration}</h3>
            <RouteList routes={r.routes} />
          </div>
        ))
      )}
    </section>
  );
}
