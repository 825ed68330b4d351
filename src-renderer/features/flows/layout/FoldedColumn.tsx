/** A side column folded to a strip: one button, its name written down the strip, opens it again. */
export function FoldedColumn({ name, onOpen }: { name: string; onOpen(): void }) {
  return (
    <div className="folded-column">
      <button type="button" onClick={onOpen} aria-label={`Show ${name}`} title={`Show ${name}`}>
        <span className="folded-name">{name}</span>
      </button>
    </div>
  );
}

/** The fold button at the top of an open side column. */
export function FoldButton({ name, side, onFold }: { name: string; side: 'left' | 'right'; onFold(): void }) {
  return (
    <button type="button" className="fold-button" onClick={onFold} aria-label={`Hide ${name}`} title={`Hide ${name} (the editor takes the room)`}>
      {side === 'left' ? '‹' : '›'}
    </button>
  );
}
