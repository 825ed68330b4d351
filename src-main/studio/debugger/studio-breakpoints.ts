import type { BreakpointInput, StudioBreakpoint } from '../../../shared/debugger-types.ts';
import { followStep, savedStepOf, stepAtLine, stepLocations, type ChainShapes, type StepLocation } from '../../../shared/step-paths.ts';
import { errorMessage, type BreakpointCheck, type StepBreakpoint } from '../../runtime/index.ts';
import { StudioError } from '../studio-error.ts';
import type { Workspace } from '../workspace.ts';
import type { BreakpointStore, StoredBreakpoint } from './debugger-store.ts';

/**
 * The workspace's breakpoints: kept in the store, each on a step found from its file and line,
 * and following that step when lines move (same path, else the same step text elsewhere, see
 * followStep). Re-read from the files whenever asked, so an edit from an outside editor is
 * followed too.
 */
export class StudioBreakpoints {
  /** Why a breakpoint does not work as written, from the last sync with its debug session. */
  private readonly problems = new Map<number, string>();

  constructor(
    private readonly store: BreakpointStore,
    private readonly workspace: Workspace,
    private readonly shapes: ChainShapes,
  ) {}

  add(input: BreakpointInput): StoredBreakpoint {
    const step = input.text !== undefined ? this.stepOfUnsaved(input.integration, input.file, input.line, input.text) : this.stepAt(input.integration, input.file, input.line);
    return this.store.add({
      integration: input.integration,
      file: input.file,
      step: step.path,
      line: step.line,
      block: step.block,
      digest: step.digest,
      condition: blankless(input.condition),
      hitCondition: blankless(input.hitCondition),
      logMessage: blankless(input.logMessage),
      enabled: input.enabled ?? true,
    });
  }

  update(id: number, change: Partial<Pick<BreakpointInput, 'condition' | 'hitCondition' | 'logMessage' | 'enabled' | 'line'>>): StoredBreakpoint {
    const bp = this.get(id);
    const next = { ...bp };
    if (change.line !== undefined && change.line !== bp.line) Object.assign(next, placed(this.stepAt(bp.integration, bp.file, change.line)));
    if (change.condition !== undefined) next.condition = blankless(change.condition);
    if (change.hitCondition !== undefined) next.hitCondition = blankless(change.hitCondition);
    if (change.logMessage !== undefined) next.logMessage = blankless(change.logMessage);
    if (change.enabled !== undefined) next.enabled = change.enabled;
    this.store.update(next);
    return next;
  }

  remove(id: number): void {
    if (!this.store.remove(id)) throw StudioError.notFound(`no breakpoint ${id}; it was removed already`);
    this.problems.delete(id);
  }

  /** The editor's lines for breakpoints of a file it just saved as `text`: each goes to the step now at its line. */
  moved(integration: string, file: string, lines: ReadonlyArray<{ id: number; line: number }>, text: string): void {
    const steps = stepLocations(text, this.shapes);
    for (const { id, line } of lines) {
      const bp = this.store.list().find((b) => b.id === id && b.integration === integration && b.file === file);
      if (!bp) continue;
      const step = stepAtLine(steps, line);
      this.store.update(step ? { ...bp, ...placed(step) } : { ...bp, step: undefined, line });
    }
  }

  /** Every breakpoint of an integration, each followed to where its step is now in the file on disk. */
  follow(integration?: string): StoredBreakpoint[] {
    const texts = new Map<string, StepLocation[] | undefined>();
    const out: StoredBreakpoint[] = [];
    for (const bp of this.store.list()) {
      if (integration !== undefined && bp.integration !== integration) continue;
      const key = `${bp.integration}\0${bp.file}`;
      if (!texts.has(key)) texts.set(key, this.stepsOf(bp.integration, bp.file));
      const steps = texts.get(key);
      const found = steps && bp.step !== undefined ? followStep(steps, { path: bp.step, line: bp.line, block: bp.block, digest: bp.digest }) : undefined;
      const now: StoredBreakpoint = found ? { ...bp, ...placed(found) } : { ...bp, step: undefined };
      if (now.step !== bp.step || now.line !== bp.line || now.digest !== bp.digest) this.store.update(now);
      out.push(now);
    }
    return out;
  }

  /** What the integration's debug session gets: enabled breakpoints on a step. */
  forSession(list: readonly StoredBreakpoint[]): StepBreakpoint[] {
    return list
      .filter((b) => b.enabled && b.step !== undefined)
      .map((b) => ({ id: b.id, step: b.step!, ...(b.condition ? { condition: b.condition } : {}), ...(b.hitCondition ? { hitCondition: b.hitCondition } : {}), ...(b.logMessage ? { logMessage: b.logMessage } : {}) }));
  }

  /** Remembers what the session said of each breakpoint (a condition that does not compile). */
  checked(checks: readonly BreakpointCheck[]): void {
    for (const c of checks) {
      if (c.verified) this.problems.delete(c.id);
      else this.problems.set(c.id, c.message ?? 'cannot work as written');
    }
  }

  view(bp: StoredBreakpoint): StudioBreakpoint {
    const problem = bp.step === undefined ? `the step it was on is gone from ${bp.file}; set it again on a step` : this.problems.get(bp.id);
    return {
      id: bp.id,
      integration: bp.integration,
      file: bp.file,
      line: bp.line,
      enabled: bp.enabled,
      verified: problem === undefined,
      ...(bp.step !== undefined ? { step: bp.step } : {}),
      ...(bp.block !== undefined ? { block: bp.block } : {}),
      ...(bp.digest !== undefined ? { digest: bp.digest } : {}),
      ...(bp.condition !== undefined ? { condition: bp.condition } : {}),
      ...(bp.hitCondition !== undefined ? { hitCondition: bp.hitCondition } : {}),
      ...(bp.logMessage !== undefined ? { logMessage: bp.logMessage } : {}),
      ...(problem !== undefined ? { message: problem } : {}),
    };
  }

  get(id: number): StoredBreakpoint {
    const bp = this.store.list().find((b) => b.id === id);
    if (!bp) throw StudioError.notFound(`no breakpoint ${id}; it was removed`);
    return bp;
  }

  private stepAt(integration: string, file: string, line: number): StepLocation {
    if (!Number.isInteger(line) || line < 1) throw new StudioError(`line must be a line number from 1, not ${String(line)}`);
    const steps = this.stepsOf(integration, file);
    if (!steps) throw StudioError.notFound(`no definition file "${file}" in integration "${integration}"`);
    const step = stepAtLine(steps, line);
    if (!step) throw new StudioError(`line ${line} of ${file} is not inside a step; a breakpoint goes on a step (its line or any line of its settings)`);
    return step;
  }

  /**
   * The saved step that is the step at `line` of an editor's unsaved `text`: the same text, moved
   * by lines typed above it, or edited where it stands. A step typed but not saved has none.
   */
  private stepOfUnsaved(integration: string, file: string, line: number, text: string): StepLocation {
    if (typeof text !== 'string') throw new StudioError('text must be the editor\'s text of the file');
    const inEditor = stepLocations(text, this.shapes);
    const step = stepAtLine(inEditor, line);
    if (!step) throw new StudioError(`line ${line} of ${file} is not inside a step; a breakpoint goes on a step (its line or any line of its settings)`);
    const saved = this.stepsOf(integration, file);
    if (!saved) throw StudioError.notFound(`no definition file "${file}" in integration "${integration}"`);
    const found = savedStepOf(saved, inEditor, step);
    if (!found) throw new StudioError(`the step at line ${line} of ${file} is not saved yet: save the file, then set the breakpoint`);
    return found;
  }

  private stepsOf(integration: string, file: string): StepLocation[] | undefined {
    try {
      return stepLocations(this.workspace.readFile(integration, file), this.shapes);
    } catch (err) {
      if (err instanceof StudioError) return undefined;
      throw new StudioError(errorMessage(err));
    }
  }
}

function placed(step: StepLocation): Pick<StoredBreakpoint, 'step' | 'line' | 'block' | 'digest'> {
  return { step: step.path, line: step.line, block: step.block, digest: step.digest };
}

function blankless(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}
