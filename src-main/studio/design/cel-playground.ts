import type { CelEvaluation, CelSample } from '../../../shared/flow-design.ts';
import { CelCompileError, type CelEnvironment, type ComponentRegistry, createCelEnvironment, errorMessage, toSnapshot } from '../../runtime/index.ts';

const MAX_EXPRESSION = 10_000;

/**
 * Evaluates expressions the way a running flow does (same environment, same number rules), over
 * a sample message. This product's functions compile but refuse to run: secret() would hand a
 * credential to the window, and resources belong to a running integration.
 */
export class CelPlayground {
  private readonly cel: CelEnvironment;

  constructor(registry: ComponentRegistry) {
    this.cel = createCelEnvironment(
      registry.celFunctions.map((f) => ({
        signature: f.signature,
        description: f.description,
        handler: () => {
          throw new Error(`${f.signature.split('(')[0]}() is not evaluated in the playground; run the flow to see its value`);
        },
      })),
    );
  }

  async evaluate(expression: string, sample: CelSample): Promise<CelEvaluation> {
    if (typeof expression !== 'string') return { ok: false, stage: 'compile', error: 'the expression must be text' };
    if (expression.length > MAX_EXPRESSION) return { ok: false, stage: 'compile', error: `the expression is over ${MAX_EXPRESSION} characters` };
    let compiled;
    try {
      compiled = this.cel.compile(expression);
    } catch (err) {
      if (err instanceof CelCompileError) return { ok: false, stage: 'compile', error: err.message, offset: err.offset };
      return { ok: false, stage: 'compile', error: errorMessage(err) };
    }
    const s = sample && typeof sample === 'object' ? sample : ({ body: null, vars: {} } as CelSample);
    const activation = {
      body: s.body ?? null,
      vars: s.vars && typeof s.vars === 'object' ? s.vars : {},
      correlationID: typeof s.correlationID === 'string' ? s.correlationID : 'playground',
      error: s.error ?? null,
    };
    try {
      const value = await compiled.evaluate(activation);
      // Bytes and times become text, as the trace view shows them.
      return { ok: true, value: toSnapshot(value), type: typeOf(value) };
    } catch (err) {
      return { ok: false, stage: 'evaluate', error: errorMessage(err) };
    }
  }
}

function typeOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'list';
  if (value instanceof Uint8Array) return 'bytes';
  if (value instanceof Date) return 'timestamp';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'object') return 'map';
  return typeof value;
}
