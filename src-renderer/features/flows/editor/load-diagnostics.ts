import type { RunProblem } from '../../../../shared/studio-api.ts';
import { studio } from '../../../api/studio-client.ts';
import { fileKey } from '../../../store/flows-slice.ts';
import { useStudio } from '../../../store/studio-store.ts';
import { isDirty, modelsOf } from './editor-models.ts';
import { monaco } from './monaco-setup.ts';

/** Markers from the runtime's loader, apart from the schema's (owner `yaml`). */
export const LOAD_MARKER_OWNER = 'flow-studio-load';

/** A keystroke pause this long starts a check; the backend answers in tens of milliseconds. */
const PAUSE_MS = 120;

const timers = new Map<string, ReturnType<typeof setTimeout>>();
const latest = new Map<string, number>();
let sequence = 0;
const shown = new WeakMap<monaco.editor.ITextModel, string>();

/**
 * Checks an integration with the real loader (`validate` mode, in the backend) once typing
 * pauses, with every unsaved buffer in place of its file, and shows the problems as markers and
 * in the Problems view. Answers that arrive after a newer check started are dropped.
 */
export function scheduleValidation(integration: string, delay = PAUSE_MS): void {
  clearTimeout(timers.get(integration));
  timers.set(
    integration,
    setTimeout(() => {
      timers.delete(integration);
      void validateNow(integration);
    }, delay),
  );
}

export async function validateNow(integration: string): Promise<void> {
  const seq = ++sequence;
  latest.set(integration, seq);
  const open = modelsOf(integration);
  const edits = open.filter((m) => isDirty(fileKey(m.ref))).map((m) => ({ file: m.ref.file, text: m.model.getValue() }));
  const versions = new Map(open.map((m) => [m.model, m.model.getVersionId()]));
  let problems: RunProblem[];
  try {
    problems = await studio.validateDefinition(integration, edits);
  } catch (err) {
    // A file removed meanwhile, an integration gone: the next check will say what holds.
    problems = [{ file: open[0]?.ref.file ?? '', line: 1, col: 1, path: '', message: `could not check: ${err instanceof Error ? err.message : String(err)}` }];
  }
  if (latest.get(integration) !== seq) return;
  useStudio.getState().setDesignProblems(integration, problems);
  for (const m of modelsOf(integration)) {
    // Positions refer to the text that was sent; a buffer edited since waits for its own check.
    if (versions.has(m.model) && versions.get(m.model) !== m.model.getVersionId()) continue;
    const markers = problems.filter((p) => p.file === m.ref.file).map((p) => markerOf(m.model, p));
    // Most checks find what the last one found; setting equal markers would redraw for nothing.
    const signature = JSON.stringify(markers);
    if (shown.get(m.model) === signature) continue;
    shown.set(m.model, signature);
    monaco.editor.setModelMarkers(m.model, LOAD_MARKER_OWNER, markers);
  }
}

/** A marker from the problem's start to the end of the word there (a key, a CEL token). */
function markerOf(model: monaco.editor.ITextModel, p: RunProblem): monaco.editor.IMarkerData {
  const line = Math.min(Math.max(1, p.line), model.getLineCount());
  const maxCol = model.getLineMaxColumn(line);
  const col = Math.min(Math.max(1, p.col), maxCol);
  const word = model.getWordAtPosition({ lineNumber: line, column: col });
  let end = word && word.startColumn <= col ? word.endColumn : col + 1;
  if (end > maxCol) end = maxCol;
  const whole = col >= maxCol;
  return {
    severity: monaco.MarkerSeverity.Error,
    message: p.path ? `${p.path}: ${p.message}` : p.message,
    source: 'flow-studio validate',
    startLineNumber: line,
    startColumn: whole ? model.getLineFirstNonWhitespaceColumn(line) || 1 : col,
    endLineNumber: line,
    endColumn: whole ? maxCol : Math.max(end, col + 1),
  };
}
