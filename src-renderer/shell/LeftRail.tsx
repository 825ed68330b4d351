import { useRef, useSyncExternalStore, type KeyboardEvent } from 'react';
import { panels } from '../store/panels.ts';
import { useStudio } from '../store/studio-store.ts';
import { setThemeChoice, subscribeTheme, themeChoice, themeChoices, type ThemeChoice } from './theme.ts';

/**
 * The left rail: one tab per panel. Arrow keys, Home and End move between tabs (roving focus),
 * and Alt+1…8 jumps from anywhere.
 */
export function LeftRail() {
  const panel = useStudio((s) => s.panel);
  const showPanel = useStudio((s) => s.showPanel);
  const refs = useRef<Array<HTMLButtonElement | null>>([]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const current = panels.findIndex((p) => p.id === panel);
    const target =
      e.key === 'ArrowDown' ? (current + 1) % panels.length
      : e.key === 'ArrowUp' ? (current - 1 + panels.length) % panels.length
      : e.key === 'Home' ? 0
      : e.key === 'End' ? panels.length - 1
      : -1;
    if (target < 0) return;
    e.preventDefault();
    showPanel(panels[target].id);
    refs.current[target]?.focus();
  };

  return (
    <nav className="rail" aria-label="Panels">
      <div className="rail-brand" aria-hidden="true">
        Flow Studio
      </div>
      <div role="tablist" aria-orientation="vertical" aria-label="Panels" onKeyDown={onKeyDown}>
        {panels.map((p, i) => (
          <button
            key={p.id}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${p.id}`}
            aria-selected={panel === p.id}
            aria-controls="panel"
            tabIndex={panel === p.id ? 0 : -1}
            className="rail-tab"
            onClick={() => showPanel(p.id)}
            title={`${p.label} (Alt+${i + 1})`}
          >
            {p.label}
          </button>
        ))}
      </div>
      <button type="button" className="rail-history" onClick={() => useStudio.getState().setHistoryOpen(true)} title="What the studio keeps across restarts, and clearing it">
        History…
      </button>
      <ThemeSetting />
    </nav>
  );
}

/** The theme setting at the foot of the rail (also in the palette: "Theme: …"). */
function ThemeSetting() {
  const choice = useSyncExternalStore(subscribeTheme, themeChoice);
  return (
    <label className="rail-setting">
      <span className="muted">Theme</span>
      <select value={choice} onChange={(e) => setThemeChoice(e.currentTarget.value as ThemeChoice)} aria-label="Theme">
        {themeChoices.map((c) => (
          <option key={c} value={c}>
            {c === 'system' ? 'System' : c === 'light' ? 'Light' : 'Dark'}
          </option>
        ))}
      </select>
    </label>
  );
}
