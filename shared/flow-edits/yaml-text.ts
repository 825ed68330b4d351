/**
 * Line arithmetic on a definition's text: where a line starts and ends, how deep it is indented,
 * and moving a stretch of lines to another depth. The edits splice the user's text with these so
 * that every line they do not touch stays byte for byte as it was.
 */

/** Offset of the first character of the line holding `offset`. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset just past the newline ending the line holding `offset` (the text's length on its last line). */
export function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl + 1;
}

/** The line starting at `start`, without its newline. */
export function lineAt(text: string, start: number): string {
  const nl = text.indexOf('\n', start);
  return text.slice(start, nl < 0 ? text.length : nl);
}

export function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

export function isBlank(line: string): boolean {
  return line.trim() === '';
}

export function isComment(line: string): boolean {
  return line.trimStart().startsWith('#');
}

/** The offset of the last character before `offset` that is not whitespace, plus one. */
export function trimBack(text: string, offset: number, floor = 0): number {
  let end = offset;
  while (end > floor && /\s/.test(text[end - 1])) end--;
  return end;
}

/**
 * Lines moved `delta` columns deeper (or shallower, when negative). Blank lines stay as they are;
 * a line never loses more spaces than it has.
 */
export function reindent(text: string, delta: number): string {
  if (delta === 0) return text;
  const pad = ' '.repeat(Math.max(0, delta));
  return text
    .split('\n')
    .map((l) => (isBlank(l) ? l : delta > 0 ? pad + l : l.slice(Math.min(-delta, indentOf(l)))))
    .join('\n');
}

/** The blank lines of a separator, or nothing when it holds anything else. */
export function blankOnly(separator: string): string {
  return isBlank(separator) ? separator.replace(/[^\n]/g, '') : '';
}
