import type { DesignComponent } from '../../../../shared/flow-design.ts';
import type { TextEdit } from '../../../../shared/flow-edits/index.ts';
import { isDark, watchDarkness } from '../../../shell/theme.ts';
import { studio } from '../../../api/studio-client.ts';
import { cursorFlowOf, fileKey, nextMoment, type FileRef } from '../../../store/flows-slice.ts';
import { useStudio } from '../../../store/studio-store.ts';
import { AnalysisClient } from '../analysis/analysis-client.ts';
import AnalysisWorker from '../analysis/analysis.worker.ts?worker';
import type { Span } from '../analysis/outline-types.ts';
import { setEditorCommands, takePendingReveal } from '../editor-commands.ts';
import { readByGraph } from '../graph/graph-outline.ts';
import { documentOf, refOfModel } from './analysed-document.ts';
import { BreakpointGutter } from './breakpoint-gutter.ts';
import { celInDefinition, registerCelCompletion } from './cel-completion-provider.ts';
import { registerCelHover } from './cel-hover-provider.ts';
import { disposeModel, loadModel, openModel, refreshFromDisk, saveModel } from './editor-models.ts';
import { scheduleValidation, validateNow } from './load-diagnostics.ts';
import { gateSchemaCompletion, monaco, useDefinitionSchema } from './monaco-setup.ts';
import { revealLineStart } from './reveal-line-start.ts';
import { schemaMayComplete } from './schema-completion-gate.ts';

/** After a keystroke pause this long the outline (graph) follows the text. */
const OUTLINE_PAUSE_MS = 200;
const CURSOR_PAUSE_MS = 120;

/**
 * The Flows panel's editor: one Monaco instance showing one model per opened file, with the
 * schema (monaco-yaml), the loader's diagnostics, CEL completion, and the outline and cursor
 * context the graph and the playground follow.
 */
export class FlowEditor {
  readonly editor: monaco.editor.IStandaloneCodeEditor;
  private readonly worker = new AnalysisWorker();
  private readonly analysis = new AnalysisClient(this.worker);
  /** Models whose edits are forwarded to the analysis worker. */
  private readonly followed = new Set<monaco.editor.ITextModel>();
  private readonly disposables: Array<{ dispose(): void }> = [];
  private readonly viewStates = new Map<string, monaco.editor.ICodeEditorViewState | null>();
  private current: FileRef | undefined;
  private readonly gutter: BreakpointGutter;
  private outlineTimer: ReturnType<typeof setTimeout> | undefined;
  private cursorTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the caret last moved (nextMoment()): the graph's selection follows only a move newer than its own. */
  private caretMovedAt = 0;
  private showing = 0;
  private disposed = false;

  constructor(container: HTMLElement) {
    this.editor = monaco.editor.create(container, {
      model: null,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      scrollBeyondLastLine: false,
      tabSize: 2,
      insertSpaces: true,
      wordBasedSuggestions: 'off',
      // CEL lives in YAML strings; suggestions must come up there while typing, not only on Ctrl+Space.
      quickSuggestions: { other: true, strings: true, comments: false },
      // Suggestions wait for a short pause instead of asking both language workers per keystroke.
      quickSuggestionsDelay: 120,
      fixedOverflowWidgets: true,
      // Each of these asks the YAML worker for a whole-file answer on every edit (symbols,
      // folding ranges, links, colours); on a long definition that costs more than typing.
      stickyScroll: { enabled: false },
      foldingStrategy: 'indentation',
      links: false,
      colorDecorators: false,
      lightbulb: { enabled: monaco.editor.ShowLightbulbIconMode.Off },
      // Occurrence search and bracket colouring run on the UI thread over the visible text on
      // every cursor move and edit; YAML gains little from them.
      occurrencesHighlight: 'off',
      bracketPairColorization: { enabled: false },
      guides: { bracketPairs: false, highlightActiveIndentation: false },
      renderValidationDecorations: 'on',
      theme: isDark() ? 'vs-dark' : 'vs',
      ariaLabel: 'Flow definition editor',
    });
    this.disposables.push(
      registerCelCompletion('yaml', celInDefinition(this.analysis)),
      registerCelHover('yaml', celInDefinition(this.analysis)),
      gateSchemaCompletion((model, position) => this.schemaMayComplete(model, position)),
      this.editor.onDidChangeModelContent(() => this.contentChanged()),
      this.editor.onDidChangeCursorPosition(() => this.cursorMoved()),
      { dispose: studio.on('workspace', (change) => void this.filesChangedOnDisk(change.changed)) },
      watchDarkness((dark) => monaco.editor.setTheme(dark ? 'vs-dark' : 'vs')),
      monaco.editor.onDidChangeMarkers((uris) => publishSchemaMarkers(uris)),
      { dispose: useStudio.subscribe((s, prev) => s.designReference !== prev.designReference && this.referenceArrived()) },
      { dispose: useStudio.subscribe((s, prev) => focusOf(s) !== focusOf(prev) && this.focusChanged()) },
    );
    this.gutter = new BreakpointGutter(this.editor, () => this.current);
    this.disposables.push(this.gutter);
    // Ctrl+S / Cmd+S saves; a running integration hot-reloads from the saved file.
    this.editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => void this.save());
    this.referenceArrived();
    setEditorCommands({
      selectSpan: (key, span, focus) => this.selectSpan(key, span, focus),
      text: (key) => (this.current && fileKey(this.current) === key ? this.editor.getModel()?.getValue() : undefined),
      applyEdits: (key, batches) => this.applyEdits(key, batches),
      placeCaret: (key, offset) => this.placeCaret(key, offset),
      // The model's own history: typing and graph edits are steps of the same one.
      undo: () => void this.editor.getModel()?.undo(),
      redo: () => void this.editor.getModel()?.redo(),
      lineOf: (key, offset) => {
        const model = this.editor.getModel();
        return model && this.current && fileKey(this.current) === key ? model.getPositionAt(offset).lineNumber : undefined;
      },
      revealPosition: (line, col) => this.reveal(line, col),
      insertComponent: (c) => this.insertComponent(c),
      save: () => this.save(),
      focus: () => this.editor.focus(),
    });
  }

  /** Shows a file (loading it on first use), keeping the previous file's cursor and scroll. */
  async show(ref: FileRef | undefined): Promise<void> {
    if (this.disposed) return;
    const ticket = ++this.showing;
    if (this.current) this.viewStates.set(fileKey(this.current), this.editor.saveViewState());
    if (!ref) {
      this.current = undefined;
      this.editor.setModel(null);
      this.gutter.render();
      return;
    }
    let model: monaco.editor.ITextModel;
    try {
      model = await loadModel(ref);
    } catch (err) {
      useStudio.getState().setNotice(`could not open ${ref.file}: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (ticket !== this.showing) return;
    const key = fileKey(ref);
    this.follow(model, key);
    this.current = ref;
    // Another file's caret is a move of its own.
    this.caretMovedAt = nextMoment();
    this.editor.setModel(model);
    const state = this.viewStates.get(key);
    if (state) this.editor.restoreViewState(state);
    this.gutter.render();
    const reveal = takePendingReveal(key);
    if (reveal) this.reveal(reveal.line, reveal.col);
    void validateNow(ref.integration);
    this.updateOutline();
    this.updateCursor();
  }

  async save(): Promise<void> {
    if (!this.current) return;
    const ref = this.current;
    try {
      await saveModel(fileKey(ref));
      useStudio.getState().setNotice(undefined);
      this.gutter.saved(ref, this.editor.getModel()?.getValue() ?? '');
    } catch (err) {
      useStudio.getState().setNotice(`could not save ${this.current.file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  dispose(): void {
    // A show() still loading its file must not reach the disposed editor (leaving the Flows
    // panel while a file loads): its ticket is now stale.
    this.showing++;
    this.disposed = true;
    setEditorCommands(undefined);
    this.worker.terminate();
    clearTimeout(this.outlineTimer);
    clearTimeout(this.cursorTimer);
    for (const d of this.disposables) d.dispose();
    this.editor.dispose();
  }

  /** Asks our own analysis (a few ms) before monaco-yaml's whole-document completion runs. */
  private async schemaMayComplete(model: monaco.editor.ITextModel, position: monaco.Position): Promise<boolean> {
    const ref = refOfModel(model);
    if (!ref || !useStudio.getState().designReference) return true;
    const lineBefore = model.getLineContent(position.lineNumber).slice(0, position.column - 1);
    try {
      const { context } = await this.analysis.context(documentOf(model, fileKey(ref)), model.getOffsetAt(position));
      return schemaMayComplete(context, lineBefore);
    } catch {
      return true;
    }
  }

  /** The worker's copy of a model follows each edit as a small delta rather than the whole text. */
  private follow(model: monaco.editor.ITextModel, key: string): void {
    if (this.followed.has(model)) return;
    this.followed.add(model);
    const sub = model.onDidChangeContent((e) =>
      this.analysis.edit(
        key,
        e.versionId,
        e.changes.map((c) => ({ offset: c.rangeOffset, length: c.rangeLength, text: c.text })),
      ),
    );
    this.disposables.push(sub, model.onWillDispose(() => this.followed.delete(model)));
  }

  private referenceArrived(): void {
    const ref = useStudio.getState().designReference;
    if (!ref) return;
    useDefinitionSchema(ref.schema);
    void this.analysis.reference({ components: ref.components, flowSettings: ref.flowSettings, envSettings: ref.envSettings }).then(() => {
      this.updateOutline();
      this.updateCursor();
    });
  }

  private contentChanged(): void {
    if (!this.current) return;
    scheduleValidation(this.current.integration);
    clearTimeout(this.outlineTimer);
    this.outlineTimer = setTimeout(() => this.updateOutline(), OUTLINE_PAUSE_MS);
  }

  private cursorMoved(): void {
    this.caretMovedAt = nextMoment();
    clearTimeout(this.cursorTimer);
    this.cursorTimer = setTimeout(() => this.updateCursor(), CURSOR_PAUSE_MS);
  }

  private updateOutline(): void {
    const model = this.editor.getModel();
    if (!model || !this.current || !useStudio.getState().designReference) return;
    const key = fileKey(this.current);
    const version = model.getVersionId();
    const focus = focusOf(useStudio.getState());
    this.analysis.outline(documentOf(model, key), focus).then(
      (outline) => {
        if (model.isDisposed() || model.getVersionId() !== version) return;
        // A graph edit read this version's outline already (graph-outline.ts): nothing to redraw.
        const shown = useStudio.getState().outline;
        if (shown?.key === key && shown.version === version && readByGraph(key, version, focus)) return;
        useStudio.getState().setOutline({ key, version, outline });
        // The graph moved to another flow while this was read (a just-opened file's first cursor
        // context): that flow came back by name only, and nothing else would ask for it again.
        const now = focusOf(useStudio.getState());
        if (now !== focus && outline.flows.find((f) => f.name === now)?.brief) this.updateOutline();
      },
      () => {},
    );
  }

  /** The graph now shows another flow: read it in full if the outline has only its name. */
  private focusChanged(): void {
    const { outline } = useStudio.getState();
    const focus = focusOf(useStudio.getState());
    if (outline?.outline.flows.find((f) => f.name === focus)?.brief) this.updateOutline();
  }

  private updateCursor(): void {
    const model = this.editor.getModel();
    const position = this.editor.getPosition();
    if (!model || !position || !this.current || !useStudio.getState().designReference) return;
    const key = fileKey(this.current);
    const offset = model.getOffsetAt(position);
    const movedAt = this.caretMovedAt;
    this.analysis.context(documentOf(model, key), offset).then(
      ({ context, scope }) => {
        if (model.isDisposed() || this.editor.getModel() !== model) return;
        useStudio.getState().setCursor({ key, offset, context, scope, movedAt });
      },
      () => {},
    );
  }

  private selectSpan(key: string, span: Span, focus = true): void {
    const model = this.editor.getModel();
    if (!model || !this.current || fileKey(this.current) !== key) return;
    const start = model.getPositionAt(span[0]);
    const end = model.getPositionAt(span[1]);
    // The caret at the start: the cursor context (and the graph following it) reads the step there, not the next one.
    const selection = new monaco.Selection(end.lineNumber, end.column, start.lineNumber, start.column);
    this.editor.setSelection(selection);
    revealLineStart(this.editor, start);
    if (focus) this.editor.focus();
  }

  /** A graph edit: one undo step (the graph reads the new outline itself, see graph-outline.ts). */
  private applyEdits(key: string, batches: readonly (readonly TextEdit[])[]): number | undefined {
    const model = this.editor.getModel();
    if (!model || !this.current || fileKey(this.current) !== key) return undefined;
    this.editor.pushUndoStop();
    for (const edits of batches) {
      const ranges = edits.map((e) => {
        const start = model.getPositionAt(e.offset);
        const end = model.getPositionAt(e.offset + e.length);
        return { range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column), text: e.text, forceMoveMarkers: true };
      });
      this.editor.executeEdits('flow-graph', ranges);
    }
    this.editor.pushUndoStop();
    // A graph edit rewrites whole steps, which drags no breakpoint dot along: each goes where its step now is.
    this.gutter.render();
    return model.getVersionId();
  }

  private placeCaret(key: string, offset: number): void {
    const model = this.editor.getModel();
    if (!model || !this.current || fileKey(this.current) !== key) return;
    const at = model.getPositionAt(offset);
    this.editor.setPosition(at);
    revealLineStart(this.editor, at);
  }

  private reveal(line: number, col: number): void {
    const position = { lineNumber: line, column: col };
    this.editor.setPosition(position);
    this.editor.revealPositionInCenterIfOutsideViewport(position);
    this.editor.focus();
  }

  private async insertComponent(component: DesignComponent): Promise<string | undefined> {
    const model = this.editor.getModel();
    const position = this.editor.getPosition();
    if (!model || !position || !this.current) return 'open a definition file first';
    const version = model.getVersionId();
    const result = await this.analysis.snippet(documentOf(model, fileKey(this.current)), model.getOffsetAt(position), component);
    if (!result.ok) return result.reason;
    if (model.isDisposed() || model.getVersionId() !== version) return 'the file changed meanwhile; try again';
    const { offset, replaceTo, text, cursor } = result.insertion;
    const start = model.getPositionAt(offset);
    const end = model.getPositionAt(replaceTo ?? offset);
    this.editor.pushUndoStop();
    this.editor.executeEdits('block-palette', [{ range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column), text }]);
    this.editor.pushUndoStop();
    const caret = model.getPositionAt(offset + cursor);
    this.editor.setPosition(caret);
    this.editor.revealPositionInCenterIfOutsideViewport(caret);
    this.editor.focus();
    return undefined;
  }

  /** Files changed on disk: clean buffers follow; deleted files close; the checks run again. */
  private async filesChangedOnDisk(changed: Array<{ integration: string; file: string }>): Promise<void> {
    const integrations = new Set<string>();
    for (const c of changed) {
      const key = fileKey(c);
      if (!openModel(key)) continue;
      const result = await refreshFromDisk(key);
      if (result === 'gone' && this.current && fileKey(this.current) !== key) disposeModel(key);
      if (result === 'kept') useStudio.getState().setNotice(`${c.file} changed on disk; your unsaved edits are kept (saving overwrites it)`);
      integrations.add(c.integration);
    }
    for (const i of integrations) scheduleValidation(i);
    if (!this.disposed && this.current && integrations.has(this.current.integration)) this.updateOutline();
  }
}

/** The flow the graph shows, which the outline reads in full. */
function focusOf(s: ReturnType<typeof useStudio.getState>): string | undefined {
  return s.graphFlow ?? cursorFlowOf(s);
}

/** The schema's markers (monaco-yaml, owner `yaml`) go to the Problems view too. */
function publishSchemaMarkers(uris: readonly monaco.Uri[]): void {
  for (const uri of uris) {
    const model = monaco.editor.getModel(uri);
    const ref = model ? refOfModel(model) : undefined;
    if (!ref) continue;
    const problems = monaco.editor.getModelMarkers({ resource: uri, owner: 'yaml' }).map((m) => ({
      file: ref.file,
      line: m.startLineNumber,
      col: m.startColumn,
      path: '',
      message: m.message,
    }));
    useStudio.getState().setSchemaProblems(fileKey(ref), problems);
  }
}
