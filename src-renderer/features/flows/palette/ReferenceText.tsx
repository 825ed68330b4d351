import { Fragment } from 'react';

/** The specs' Markdown as people read it: paragraphs and `code`; nothing is injected as HTML. */
export function ReferenceText({ text }: { text: string }) {
  return (
    <>
      {text.split(/\n{2,}/).map((para, i) => (
        <p key={i} className="reference-text">
          {para.split(/(`[^`]+`)/).map((part, j) =>
            part.startsWith('`') && part.endsWith('`') && part.length > 1 ? <code key={j}>{part.slice(1, -1)}</code> : <Fragment key={j}>{part.replace(/\*\*/g, '')}</Fragment>,
          )}
        </p>
      ))}
    </>
  );
}
