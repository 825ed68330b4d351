import type { StudioBreakpoint } from '../../../../shared/debugger-types.ts';
import { followStep, stepLocations } from '../../../../shared/step-paths.ts';
import { breakpointsOfFile, pausedInFile } from '../../../store/debugger-slice.ts';
import { fileKey, type FileRef } from '../../../store/flows-slice.ts';
import { useStudio } from '../../../store/studio-store.ts';
import { placeBreakpoints, shapesOfReference } from '../../debugger/breakpoint-places.ts';
import { moveBreakpoints, removeBreakpoint, toggleBreakpointAt } from '../../debugger/debugger-actions.ts';
import { monaco } from './monaco-setup.ts';
import './breakpoint-gutter.css';

/**
 * Breakpoints in the YAML editor's gutter: a click left of a line sets one on the step there (or
 * removes it), logpoints show as diamonds, disabled or unworkable ones hollow, and the line a
 * paused run waits at is marked. The glyphs move with the text while it is edited; on save the
 * breakpoints follow them to the steps now at those lines.
 */
export class BreakpointGutter {
  private readonly marks: monaco.editor.IEditorDecorationsCollection;
  private readonly hint: monaco.editor.IEditorDecorationsCollection;
  /** Breakpoint id by the decoration that shows it, to read where edits moved it. */
  private shown = new Map<string, number>();
  private readonly disposables: Array<{ dispose(): void }> = [];

  constructor(
    private readonly editor: monaco.editor.IStandaloneCodeEditor,
    private readonly current: () => FileRef | undefined,
  ) {
    editor.updateOptions({ glyphMargin: true });
    this.marks = editor.createDecorationsCollection();
    this.hint = editor.createDecorationsCollection();
    this.disposables.push(
      editor.onMouseDown((e) => {
        if (e.target.type !== monaco.editor.MouseTargetType.GUTTER_GLYPH_MARGIN || !e.target.position) return;
        const ref = this.current();
        const model = this.editor.getModel();
        if (!ref || !model) return;
        const line = e.target.position.lineNumber;
        // A click on a dot removes it; elsewhere it toggles the step the line is in, as the editor's text has it.
        const dot = this.breakpointAt(line);
        if (dot) void removeBreakpoint(dot);
        else void toggleBreakpointAt(ref.integration, ref.file, line, { text: model.getValue(), unsaved: useStudio.getState().dirtyFiles[fileKey(ref)] === true });
      }),
      editor.onMouseMove((e) => {
        const line = e.target.type === monaco.editor.MouseTargetType.GUTTER_GLYPH_MARGIN ? e.target.position?.lineNumber : undefined;
        this.hint.set(line === undefined ? [] : [{ range: new monaco.Range(line, 1, line, 1), options: { glyphMarginClassName: 'flow-bp-hint', glyphMarginHoverMessage: { value: 'Click to set a breakpoint on this step' } } }]);
      }),
      editor.onMouseLeave(() => this.hint.clear()),
      // Undo and redo put text back without the dots that were on it: each goes where its step now is.
      editor.onDidChangeModelContent((e) => (e.isUndoing || e.isRedoing) && this.render()),
      { dispose: useStudio.subscribe((s, prev) => (s.breakpoints !== prev.breakpoints || s.pausedRuns !== prev.pausedRuns) && this.render()) },
    );
  }

  /** Draws the open file's breakpoints and paused lines; call when another file is shown. */
  render(): void {
    const ref = this.current();
    if (!ref || !this.editor.getModel()) {
      this.marks.clear();
      this.shown.clear();
      return;
    }
    const state = useStudio.getState();
    const bps = breakpointsOfFile(state, ref.integration, ref.file);
    // Kept against the saved file: with unsaved edits a step (its dot, the line a run waits at) may stand on another line.
    const shapes = state.dirtyFiles[fileKey(ref)] ? shapesOfReference(state.designReference) : undefined;
    const steps = shapes ? stepLocations(this.editor.getModel()!.getValue(), shapes) : undefined;
    const places = steps ? placeBreakpoints(steps, bps) : undefined;
    const lineOf = (b: StudioBreakpoint): number => places?.get(b.id)?.line ?? b.line;
    const decorations: monaco.editor.IModelDeltaDecoration[] = bps.map((b) => ({
      range: new monaco.Range(lineOf(b), 1, lineOf(b), 1),
      options: {
        glyphMarginClassName: `flow-bp-glyph${b.logMessage ? ' log' : ''}${b.enabled && b.verified ? '' : ' off'}`,
        glyphMarginHoverMessage: { value: hoverOf(b) },
        stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges,
      },
    }));
    for (const p of pausedInFile(state, ref.integration, ref.file)) {
      const top = p.frames[0];
      if (top.line === undefined) continue;
      const line = (steps && followStep(steps, { path: top.step, line: top.line, ...(top.block !== undefined ? { block: top.block } : {}) })?.line) ?? top.line;
      decorations.push({ range: new monaco.Range(line, 1, line, 1), options: { isWholeLine: true, className: 'flow-paused-line', glyphMarginClassName: 'flow-paused-glyph', glyphMarginHoverMessage: { value: `${p.flow} ${p.runId} is paused before this step` } } });
    }
    const ids = this.marks.set(decorations);
    this.shown = new Map(bps.map((b, i) => [ids[i], b.id]));
  }

  /** After the file was saved as `text`: breakpoints whose glyph moved follow it to the step now there. */
  saved(ref: FileRef, text: string): void {
    const model = this.editor.getModel();
    if (!model) return;
    const lines: Array<{ id: number; line: number }> = [];
    const bps = breakpointsOfFile(useStudio.getState(), ref.integration, ref.file);
    for (const [decoration, id] of this.shown) {
      const range = model.getDecorationRange(decoration);
      const bp = bps.find((b) => b.id === id);
      if (range && bp && range.startLineNumber !== bp.line) lines.push({ id, line: range.startLineNumber });
    }
    if (lines.length > 0) void moveBreakpoints(ref.integration, ref.file, lines, text);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.marks.clear();
    this.hint.clear();
  }

  /** The breakpoint whose glyph is now at `line` (edits may have moved it), for a click that removes it. */
  private breakpointAt(line: number): StudioBreakpoint | undefined {
    const model = this.editor.getModel();
    const ref = this.current();
    if (!model || !ref) return undefined;
    for (const [decoration, id] of this.shown) {
      if (model.getDecorationRange(decoration)?.startLineNumber !== line) continue;
      return breakpointsOfFile(useStudio.getState(), ref.integration, ref.file).find((b) => b.id === id);
    }
    return undefined;
  }
}

function hoverOf(b: { step?: string; condition?: string; hitCondition?: string; logMessage?: string; enabled: boolean; message?: string }): string {
  const what = b.logMessage ? `Logpoint: \`${b.logMessage}\`` : 'Breakpoint';
  const parts = [`${what} on ${b.step ?? 'no step'}`];
  if (b.condition) parts.push(`when \`${b.condition}\``);
  if (b.hitCondition) parts.push(`hit count ${b.hitCondition}`);
  if (!b.enabled) parts.push('(disabled)');
  if (b.message) parts.push(`— ${b.message}`);
  return parts.join(' ');
}
