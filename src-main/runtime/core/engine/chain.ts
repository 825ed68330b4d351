import { Halt, type Block } from '../component.ts';
import { errorMessage } from '../errors.ts';
import { toSnapshot, type Message, type MessageError, type Outcome } from '../message.ts';
import type { TraceHub } from '../trace.ts';

export interface FlowResult {
  outcome: Outcome;
  message: Message;
  error?: MessageError;
  /** True when a block ended the chain early (Halt) rather than the last step. */
  halted?: boolean;
}

/** Per-run context handed to every block. */
export interface RunContext {
  flowName: string;
  runId: string;
  /** Set only while someone listens to traces. */
  trace: TraceHub | undefined;
  /** Nesting depth of flow-ref calls, to stop runaway recursion. */
  depth: number;
  deployment?: string;
  instance?: string;
}

export interface Step {
  /** Setting path, e.g. `flows.orders.steps[2]`. */
  path: string;
  type: string;
  name?: string;
  block: Block;
}

/** An ordered list of blocks; the unit a flow, a switch case or an error chain runs. */
export class Chain {
  constructor(readonly steps: readonly Step[]) {}

  async run(msg: Message, run: RunContext): Promise<FlowResult> {
    let current = msg;
    for (const step of this.steps) {
      const trace = run.trace;
      const started = trace ? Date.now() : 0;
      const t0 = trace ? performance.now() : 0;
      const input = trace?.snapshots ? snapshot(current) : undefined;
      let result: Awaited<ReturnType<Block['process']>>;
      try {
        result = await step.block.process(current, run);
      } catch (err) {
        const error: MessageError = { message: errorMessage(err), step: step.path };
        if (trace) emitStep(run, step, current, started, t0, 'failed', input, error.message);
        return { outcome: 'failed', message: current, error };
      }
      if (result === null) {
        if (trace) emitStep(run, step, current, started, t0, 'dropped', input);
        return { outcome: 'dropped', message: current };
      }
      if (result instanceof Halt) {
        if (trace) emitStep(run, step, result.message, started, t0, 'completed', input);
        return { outcome: 'completed', message: result.message, halted: true };
      }
      current = result;
      if (trace) emitStep(run, step, current, started, t0, 'completed', input);
    }
    return { outcome: 'completed', message: current };
  }
}

function snapshot(msg: Message): unknown {
  return { body: toSnapshot(msg.body), vars: toSnapshot(msg.vars) };
}

function emitStep(
  run: RunContext,
  step: Step,
  msg: Message,
  startedAt: number,
  t0: number,
  outcome: Outcome,
  input: unknown,
  error?: string,
): void {
  const trace = run.trace;
  if (!trace) return;
  trace.emit({
    kind: 'step',
    flow: run.flowName,
    correlationId: msg.correlationId,
    runId: run.runId,
    step: step.path,
    block: step.type,
    name: step.name,
    startedAt,
    durationMs: performance.now() - t0,
    outcome,
    error,
    input,
    output: trace.snapshots && outcome !== 'failed' ? snapshot(msg) : undefined,
    deployment: run.deployment,
    instance: run.instance,
  });
}
