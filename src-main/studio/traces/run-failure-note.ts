import { innermostFailedStep } from '../../../shared/step-paths.ts';
import type { StoredStep } from './run-record.ts';

/** Where a failed run failed, and which delivery of its message it was: what its Logs line says beside the error. */
export interface RunFailureNote {
  /** The step that failed (a failed step none of whose inner steps failed), when steps were traced. */
  step?: string;
  block?: string;
  /** A queue or topic message's delivery count (1 the first time), when the run's input was recorded. */
  deliveryCount?: number;
}

/** Read off a failed run's steps and input, which the store holds anyway: nothing is asked of a run that completes. */
export function failureNoteOf(steps: readonly StoredStep[], input: unknown): RunFailureNote {
  const failed = innermostFailedStep(steps);
  const vars = isRecord(input) && isRecord(input.vars) ? input.vars : undefined;
  const note: RunFailureNote = {};
  if (failed) {
    note.step = failed.step;
    if (failed.block !== undefined) note.block = failed.block;
  }
  if (typeof vars?.deliveryCount === 'number') note.deliveryCount = vars.deliveryCount;
  return note;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
