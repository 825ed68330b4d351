import type { BreakpointInput, StepAction, StudioBreakpoint } from '../../../shared/debugger-types.ts';
import type { StudioBridge } from '../../../shared/studio-api.ts';
import { studio } from '../../api/studio-client.ts';
import { stepAtLine, stepLocations } from '../../../shared/step-paths.ts';
import { breakpointsOfFile } from '../../store/debugger-slice.ts';
import { useStudio } from '../../store/studio-store.ts';
import { placeBreakpoints, shapesOfReference } from './breakpoint-places.ts';

/** Every call of the debugger: a failure becomes the shell's notice; the state is read again after each change. */
async function call<T>(run: () => Promise<T>): Promise<T | undefined> {
  try {
    const value = await run();
    useStudio.getState().setNotice(undefined);
    return value;
  } catch (err) {
    useStudio.getState().setNotice(err instanceof Error ? err.message : String(err));
    return undefined;
  } finally {
    void refreshDebugger();
  }
}

let reading: Promise<void> | undefined;
let again = false;

/** Reads the debugger's state; calls made while a read is under way collapse into one more read. */
export function refreshDebugger(bridge: StudioBridge = studio): Promise<void> {
  if (reading) {
    again = true;
    return reading;
  }
  reading = bridge
    .debuggerState()
    .then((state) => useStudio.getState().applyDebuggerState(state), () => {})
    .finally(() => {
      reading = undefined;
      if (again) {
        again = false;
        void refreshDebugger(bridge);
      }
    });
  return reading;
}

/** The editor's text of a file, and whether it holds edits not saved yet. */
export interface EditorText {
  text: string;
  unsaved: boolean;
}

/**
 * Sets a breakpoint on the step at a line of the editor, or removes the breakpoints that step has:
 * what a click in the editor's gutter does (on the step's first line or any line of its settings),
 * and what the flow graph's step toggle does. With unsaved edits the line is one of the editor's
 * text, which goes along so the breakpoint lands on that step as saved.
 */
export function toggleBreakpointAt(integration: string, file: string, line: number, editor?: EditorText): Promise<unknown> {
  const state = useStudio.getState();
  const shapes = shapesOfReference(state.designReference);
  if (!editor || !shapes) {
    const existing = state.breakpoints.find((b) => b.integration === integration && b.file === file && b.line === line);
    if (existing) return call(() => studio.removeBreakpoint(existing.id));
    return call(() => studio.addBreakpoint({ integration, file, line }));
  }
  const steps = stepLocations(editor.text, shapes);
  const step = stepAtLine(steps, line);
  const bps = breakpointsOfFile(state, integration, file);
  const places = placeBreakpoints(steps, bps);
  const existing = step ? bps.filter((b) => places.get(b.id)?.path === step.path) : [];
  if (existing.length > 0) return call(() => Promise.all(existing.map((b) => studio.removeBreakpoint(b.id))));
  return call(() => studio.addBreakpoint({ integration, file, line, ...(editor.unsaved ? { text: editor.text } : {}) }));
}

export const addBreakpoint = (input: BreakpointInput) => call(() => studio.addBreakpoint(input));
export const updateBreakpoint = (bp: StudioBreakpoint, change: Parameters<StudioBridge['updateBreakpoint']>[1]) => call(() => studio.updateBreakpoint(bp.id, change));
export const removeBreakpoint = (bp: StudioBreakpoint) => call(() => studio.removeBreakpoint(bp.id));
export const resumeRun = (thread: number, action: StepAction) => call(() => studio.resumeRun(thread, action));
export const abortRun = (thread: number) => call(() => studio.abortRun(thread));
export const editPausedMessage = (thread: number, path: Array<string | number>, value: unknown) => call(() => studio.editPausedMessage(thread, path, value));
export const moveBreakpoints = (integration: string, file: string, lines: Array<{ id: number; line: number }>, text: string) => call(() => studio.moveBreakpoints(integration, file, lines, text));

/** Evaluates CEL in a paused run; the answer or the error's message, for the evaluate box. */
export async function evaluateInRun(thread: number, expression: string): Promise<{ value: unknown } | { error: string }> {
  try {
    return await studio.evaluateInRun(thread, expression);
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** Replays a stored run under the debugger (from Traces); the Debugger panel opens to follow it. */
export function replayUnderDebugger(runId: string): Promise<unknown> {
  useStudio.getState().showPanel('debugger');
  return call(() => studio.replayRun(runId));
}
