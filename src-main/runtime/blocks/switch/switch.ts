import { Halt, implementBlock, type StepResult } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { isTrue } from '../../core/cel.ts';
import type { FlowResult } from '../../core/engine/chain.ts';
import { FlowError } from '../../core/errors.ts';
import { switchDef } from './switch.def.ts';

export const switchBlock = implementBlock(switchDef, (s) => ({
  async process(msg, run) {
    const act = activationOf(msg);
    let chosen = s.default;
    for (const c of s.cases) {
      const verdict = c.when.evaluate(act);
      // A condition that waited (a secret read the first time) is awaited; others are not.
      if (isTrue(verdict instanceof Promise ? await verdict : verdict)) {
        chosen = c.steps;
        break;
      }
    }
    if (!chosen) return msg;
    return caseResult(await chosen.run(msg, run));
  },
  // A re-run from a step inside a case: that case was chosen already, so no condition is evaluated.
  async resume(msg, run, rest) {
    return caseResult(await rest(msg, run));
  },
}));

/** What the chosen case's outcome makes of the switch step. */
function caseResult(result: FlowResult): StepResult {
  if (result.outcome === 'failed') throw new FlowError(result.error?.message ?? 'a switch case failed', { status: result.error?.status });
  if (result.outcome === 'dropped') return null;
  return result.halted ? new Halt(result.message) : result.message;
}
