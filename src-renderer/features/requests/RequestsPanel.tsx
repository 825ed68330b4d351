import { PanelHeader } from '../../components/PanelHeader.tsx';
import { useStudio } from '../../store/studio-store.ts';
import type { RequestsTab } from '../../store/requests-slice.ts';
import { CaptureList } from './CaptureList.tsx';
import { CaptureView } from './CaptureView.tsx';
import { Composer } from './Composer.tsx';
import { EnvironmentPicker } from './EnvironmentPicker.tsx';
import { HistoryList, RouteChooser, SavedList } from './SideLists.tsx';
import { ResponseView } from './ResponseView.tsx';
import { SseFrames } from './SseFrames.tsx';
import './requests.css';

const TABS: Array<{ id: RequestsTab; label: string }> = [
  { id: 'routes', label: 'Routes' },
  { id: 'saved', label: 'Saved' },
  { id: 'history', label: 'History' },
  { id: 'captures', label: 'Captures' },
];

/**
 * Fire requests at the running flows' routes and see what came back (streams frame by frame);
 * every request that reaches a route, from anywhere, is captured here to inspect and replay.
 */
export function RequestsPanel() {
  const tab = useStudio((s) => s.requestsTab);
  const setTab = useStudio((s) => s.setRequestsTab);
  const openCapture = useStudio((s) => s.openCapture);
  return (
    <section className="panel requests-panel" aria-labelledby="panel-title">
      <PanelHeader title="Requests">
        <EnvironmentPicker />
      </PanelHeader>
      <div className="requests-split">
        <aside className="requests-side" aria-label="Requests lists">
          <div className="tabs" role="tablist" aria-label="Request lists">
            {TABS.map((t) => (
              <button key={t.id} type="button" role="tab" className="tab" aria-selected={tab === t.id} onClick={() => setTab(t.id)}>
                {t.label}
              </button>
            ))}
          </div>
          {tab === 'routes' ? <RouteChooser /> : tab === 'saved' ? <SavedList /> : tab === 'history' ? <HistoryList /> : <CaptureList />}
        </aside>
        <div className="requests-main">{openCapture !== undefined ? <CaptureView id={openCapture} /> : <ComposerAndResponse />}</div>
      </div>
    </section>
  );
}

function ComposerAndResponse() {
  const inFlight = useStudio((s) => s.inFlight);
  const shown = useStudio((s) => s.shownEntry);
  return (
    <>
      <Composer />
      {inFlight ? (
        <section className="response" aria-label="Response">
          <div className="response-line">
            <span className="status-code status-pending" aria-label="Response status">
              {inFlight.status ?? '…'}
            </span>
            <span className="muted">{inFlight.status === undefined ? 'waiting for the answer…' : 'receiving…'}</span>
          </div>
          {inFlight.frames.length > 0 || inFlight.headers?.some(([k, v]) => k === 'content-type' && v.startsWith('text/event-stream')) ? <SseFrames frames={inFlight.frames} live /> : null}
        </section>
      ) : shown ? (
        <ResponseView entry={shown} />
      ) : null}
    </>
  );
}
