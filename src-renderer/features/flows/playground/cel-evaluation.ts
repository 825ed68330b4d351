import { useEffect, useRef, useState } from 'react';
import type { CelEvaluation, CelSample } from '../../../../shared/flow-design.ts';
import { studio } from '../../../api/studio-client.ts';

/**
 * An expression evaluated against a message in the backend, with the runtime's own CEL
 * environment, a short pause after the last change: compile errors and the value as it is typed.
 * Undefined while the expression is empty or no message is given; an answer that a newer
 * expression overtook is dropped.
 */
export function useCelEvaluation(expression: string, sample: CelSample | undefined, pauseMs = 150): CelEvaluation | undefined {
  const [result, setResult] = useState<CelEvaluation | undefined>();
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    if (!expression.trim() || !sample) {
      setResult(undefined);
      return;
    }
    const timer = setTimeout(() => {
      studio.evaluateCel(expression, sample).then(
        (r) => mine === seq.current && setResult(r),
        (err: unknown) => mine === seq.current && setResult({ ok: false, stage: 'evaluate', error: err instanceof Error ? err.message : String(err) }),
      );
    }, pauseMs);
    return () => clearTimeout(timer);
  }, [expression, sample, pauseMs]);
  return result;
}
