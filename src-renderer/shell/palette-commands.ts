import type { IntegrationSummary, RunState } from '../../shared/studio-api.ts';
import { runAction } from '../api/run-actions.ts';
import { panels } from '../store/panels.ts';
import { useStudio } from '../store/studio-store.ts';
import { setThemeChoice, themeChoices } from './theme.ts';

export interface PaletteCommand {
  id: string;
  title: string;
  run(): void;
}

/** Everything the command palette offers: go to a panel, run, stop or restart an integration, pick a theme. */
export function paletteCommands(integrations: IntegrationSummary[], runs: Record<string, RunState>, runsKnown = true): PaletteCommand[] {
  const go = panels.map((p) => ({ id: `go:${p.id}`, title: `Go to ${p.label}`, run: () => useStudio.getState().showPanel(p.id) }));
  // Before the run states are known, neither Run nor Stop is offered: either could be wrong.
  const run = integrations.flatMap((i) => {
    if (!runsKnown) return [];
    const status = runs[i.id]?.status ?? 'stopped';
    const active = status === 'running' || status === 'starting';
    return active
      ? [
          { id: `restart:${i.id}`, title: `Restart ${i.name}`, run: () => void runAction('restart', i.id) },
          { id: `stop:${i.id}`, title: `Stop ${i.name}`, run: () => void runAction('stop', i.id) },
        ]
      : [{ id: `start:${i.id}`, title: `Run ${i.name}`, run: () => void runAction('start', i.id) }];
  });
  const theme = themeChoices.map((c) => ({ id: `theme:${c}`, title: `Theme: ${c === 'system' ? 'follow the system' : c}`, run: () => setThemeChoice(c) }));
  const history = { id: 'history', title: 'History: what is kept across restarts, clear it…', run: () => useStudio.getState().setHistoryOpen(true) };
  return [...run, ...go, history, ...theme];
}
