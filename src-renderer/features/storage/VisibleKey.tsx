const NAMES: Record<string, [string, string]> = { '\t': ['\\t', 'tab'], '\n': ['\\n', 'line break'], '\r': ['\\r', 'carriage return'] };

function escaped(c: string): [string, string] {
  const code = c.charCodeAt(0);
  return NAMES[c] ?? [`\\u${code.toString(16).padStart(4, '0')}`, `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`];
}

/**
 * A KV key as text that can be read aloud or matched: each control character (a tab, a line
 * break, …) written as its escape (\t, \n, \u001b), which a list or a heading would otherwise draw
 * as a space or drop, so `orders/1<TAB>line` and `orders/1 line` looked the same.
 */
export function visibleKey(key: string): string {
  return key.replace(/[\u0000-\u001f\u007f]/g, (c) => escaped(c)[0]);
}

/**
 * The key drawn with each control character as its escape in a marked box (so `\t` typed as two
 * characters still reads differently from a tab), named in a tooltip. Only the drawing changes:
 * the key itself is used as stored.
 */
export function VisibleKey({ text }: { text: string }) {
  const parts = text.split(/([\u0000-\u001f\u007f])/);
  if (parts.length === 1) return <>{text}</>;
  return (
    <>
      {parts.map((p, i) => {
        if (i % 2 === 0) return p;
        const [shown, name] = escaped(p);
        return (
          <span key={i} className="control-char" title={name}>
            {shown}
          </span>
        );
      })}
    </>
  );
}
