import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useStudio } from '../store/studio-store.ts';
import { paletteCommands } from './palette-commands.ts';

/** Ctrl/Cmd+K: type to filter, arrows to choose, Enter to run, Escape to close. */
export function CommandPalette() {
  const open = useStudio((s) => s.paletteOpen);
  // Mounted only while open, so every opening starts from an empty query in its very first frame
  // (a query cleared by an effect after that frame could still take the first keystrokes).
  return open ? <PaletteDialog /> : null;
}

function PaletteDialog() {
  const setOpen = useStudio((s) => s.setPaletteOpen);
  const integrations = useStudio((s) => s.integrations);
  const runs = useStudio((s) => s.runs);
  const runsKnown = useStudio((s) => s.runsKnown);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  // Where the focus was before the palette took it: read while rendering, before the input has it.
  const [returnFocus] = useState(() => document.activeElement);

  const commands = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return paletteCommands(integrations, runs, runsKnown).filter((c) => words.every((w) => c.title.toLowerCase().includes(w)));
  }, [query, integrations, runs, runsKnown]);

  // Focused before the first paint, so no keystroke typed right after Ctrl+K lands elsewhere.
  useLayoutEffect(() => {
    input.current?.focus();
    return () => {
      if (returnFocus instanceof HTMLElement) returnFocus.focus();
    };
  }, [returnFocus]);

  const close = (): void => setOpen(false);
  const choose = (i: number): void => {
    const c = commands[i];
    if (!c) return;
    close();
    c.run();
  };
  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.key === 'Escape') close();
    else if (e.key === 'ArrowDown') setActive((a) => Math.min(commands.length - 1, a + 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
    else if (e.key === 'Enter') choose(active);
    else return;
    e.preventDefault();
  };

  return (
    <div className="palette-backdrop" onMouseDown={close}>
      <div className="palette" role="dialog" aria-modal="true" aria-label="Command palette" onMouseDown={(e) => e.stopPropagation()} onKeyDown={onKeyDown}>
        <input
          ref={input}
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={commands[active] ? `cmd-${active}` : undefined}
          placeholder="Type a command…"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
        />
        <ul id="palette-list" role="listbox" aria-label="Commands">
          {commands.map((c, i) => (
            <li key={c.id} id={`cmd-${i}`} role="option" aria-selected={i === active} onMouseEnter={() => setActive(i)} onClick={() => choose(i)}>
              {c.title}
            </li>
          ))}
          {commands.length === 0 ? <li className="muted">No command matches</li> : null}
        </ul>
      </div>
    </div>
  );
}
