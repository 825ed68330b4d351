import type { DesignComponent } from '../../../shared/flow-design.ts';
import type { TextEdit } from '../../../shared/flow-edits/index.ts';
import { useStudio } from '../../store/studio-store.ts';
import type { FileRef } from '../../store/flows-slice.ts';
import type { Span } from './analysis/outline-types.ts';

/** What the rest of the Flows panel asks of the editor, which loads separately (Monaco is big). */
export interface EditorCommands {
  /** Selects a stretch of the open file and scrolls it into view; the editor takes the focus unless `focus` is false. */
  selectSpan(key: string, span: Span, focus?: boolean): void;
  /** The open file's text as it stands in the editor. */
  text(key: string): string | undefined;
  /**
   * Applies edits (offsets on the current text, in turn: each list on the text the previous one
   * left) as one step of the editor's undo history. Returns the model's new version, undefined
   * when the file is no longer the one shown.
   */
  applyEdits(key: string, batches: readonly (readonly TextEdit[])[]): number | undefined;
  /** Puts the text cursor at an offset of the open file without taking the focus. */
  placeCaret(key: string, offset: number): void;
  undo(): void;
  redo(): void;
  /** The line (from 1) of an offset in the open file as the editor holds it; undefined for another file. */
  lineOf(key: string, offset: number): number | undefined;
  /** Moves the cursor to a line and column of the open file. */
  revealPosition(line: number, col: number): void;
  /** Inserts a component's snippet at the cursor; resolves with why not when it cannot. */
  insertComponent(component: DesignComponent): Promise<string | undefined>;
  /** Saves the open file. */
  save(): Promise<void>;
  focus(): void;
}

let current: EditorCommands | undefined;
let pendingReveal: { key: string; line: number; col: number } | undefined;

export function setEditorCommands(commands: EditorCommands | undefined): void {
  current = commands;
}

export function editorCommands(): EditorCommands | undefined {
  return current;
}

/**
 * Opens a file at a line and column (a problem, a graph node in another file). When the editor
 * has not shown the file yet, the position waits until it does.
 */
export function openFileAt(file: FileRef, line: number, col: number): void {
  const key = `${file.integration}/${file.file}`;
  const open = useStudio.getState().openFile;
  if (current && open && open.integration === file.integration && open.file === file.file) {
    current.revealPosition(line, col);
    return;
  }
  pendingReveal = { key, line, col };
  useStudio.getState().setOpenFile(file);
}

/** The position waiting for a file the editor is about to show, taken once. */
export function takePendingReveal(key: string): { line: number; col: number } | undefined {
  if (pendingReveal?.key !== key) return undefined;
  const p = pendingReveal;
  pendingReveal = undefined;
  return p;
}
