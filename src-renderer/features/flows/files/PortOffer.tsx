import type { PortClash } from '../../../../shared/studio-api.ts';
import { studio } from '../../../api/studio-client.ts';
import { useStudio } from '../../../store/studio-store.ts';

/**
 * A port the integration could not bind, who holds it, and one click to move to the free port
 * offered: a `port: 0` connector is given it from now on, one with a port setting has it written.
 */
export function PortOffer({ integration, clash }: { integration: string; clash: PortClash }) {
  const move = (): void => {
    studio.usePort(integration, clash.connector, clash.suggestion).then(
      (state) => useStudio.getState().applyRunState(state),
      (err: unknown) => useStudio.getState().setNotice(err instanceof Error ? err.message : String(err)),
    );
  };
  return (
    <p className="port-offer" role="group" aria-label={`Port ${clash.port} is taken`}>
      Port {clash.port} is held by {clash.heldBy ? <strong>{`${clash.heldBy.integration} (${clash.heldBy.connector})`}</strong> : 'another program'}.{' '}
      <button type="button" onClick={move} title={clash.remembered ? `Give connector "${clash.connector}" port ${clash.suggestion} from now on` : `Write port ${clash.suggestion} into connector "${clash.connector}" and run it`}>
        Use port {clash.suggestion}
      </button>
    </p>
  );
}
