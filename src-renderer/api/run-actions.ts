import type { RunState } from '../../shared/studio-api.ts';
import { useStudio } from '../store/studio-store.ts';
import { studio } from './studio-client.ts';

type RunAction = 'start' | 'stop' | 'restart';

const calls: Record<RunAction, (id: string) => Promise<RunState>> = {
  start: (id) => studio.startIntegration(id),
  stop: (id) => studio.stopIntegration(id),
  restart: (id) => studio.restartIntegration(id),
};

/** One click: start, stop or restart an integration; a failure shows as a notice. */
export async function runAction(action: RunAction, integration: string): Promise<void> {
  const { applyRunState, setNotice } = useStudio.getState();
  try {
    applyRunState(await calls[action](integration));
    setNotice(undefined);
  } catch (err) {
    setNotice(`could not ${action} ${integration}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
