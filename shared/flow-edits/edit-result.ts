import type { Splice } from './definition-document.ts';
import { FlowEditError, unchanged, type PathFollow } from './step-place.ts';

/** One replacement in the text before the edit: `length` characters at `offset` become `text` (Monaco's executeEdits takes these as they are). */
export interface TextEdit {
  offset: number;
  length: number;
  text: string;
}

export interface FlowEditResult {
  /** The whole text after the edit. */
  text: string;
  /** The replacements that make it, on the text before the edit; lines outside them are untouched. */
  edits: TextEdit[];
  /** The step to select afterwards (the inserted, moved or wrapping one). */
  select?: string;
  /** Where each step of the text before the edit is now (undefined: removed). */
  follow: PathFollow;
}

/** Applies splices made on one text, refusing overlapping ones (a bug in an edit, never the user's). */
export function finish(text: string, splices: Splice[], select?: string, follow: PathFollow = unchanged): FlowEditResult {
  const sorted = [...splices].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let floor = Infinity;
  for (const s of sorted) {
    if (s.end > floor || s.start > s.end) throw new FlowEditError('the edit overlaps itself');
    out = out.slice(0, s.start) + s.text + out.slice(s.end);
    floor = s.start;
  }
  const edits = splices.map((s) => ({ offset: s.start, length: s.end - s.start, text: s.text })).sort((a, b) => a.offset - b.offset);
  return { text: out, edits, ...(select !== undefined ? { select } : {}), follow };
}

/** Applies edits in the same shape to a text (what the editor does with them). */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  return finish(
    text,
    edits.map((e) => ({ start: e.offset, end: e.offset + e.length, text: e.text })),
  ).text;
}
