import { monaco } from './monaco-setup.ts';

/**
 * Brings a step's first line into view with the caret at `at`, keeping the line's start on screen.
 *
 * Monaco's range and position reveals also scroll sideways to show the range's end, so selecting a
 * step of one long line (a `set` with a long CEL expression) in a narrow editor left every line's
 * start off screen and the line numbers beside the lines' tails. A step is read from its start:
 * the view scrolls vertically only, and back to column 1 whenever the caret fits there.
 */
export function revealLineStart(editor: monaco.editor.ICodeEditor, at: monaco.IPosition): void {
  editor.revealLineInCenterIfOutsideViewport(at.lineNumber);
  const charWidth = editor.getOption(monaco.editor.EditorOption.fontInfo).typicalHalfwidthCharacterWidth;
  // YAML indents with spaces, so the caret's column times a character's width is where it is drawn;
  // one more character keeps it off the very edge.
  if (at.column * charWidth <= editor.getLayoutInfo().contentWidth) editor.setScrollLeft(0);
  // Nested deeper than the editor is wide: the caret shows, as Monaco would reveal it.
  else editor.revealPosition(at);
}
