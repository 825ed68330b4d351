import { useEffect, useMemo, useState } from 'react';
import type { CelEvaluation, CelSample } from '../../../../shared/flow-design.ts';
import { useStudio } from '../../../store/studio-store.ts';
import { useCelEvaluation } from './cel-evaluation.ts';
import { SAMPLE_ORIGIN, sampleFor, tracedInputs } from './sample-message.ts';

/**
 * Evaluates the CEL expression under the cursor against a sample message, in the backend with
 * the runtime's own CEL environment. Both the expression and the sample can be edited here.
 */
export function CelPlayground() {
  const cursor = useStudio((s) => s.cursor);
  const integration = useStudio((s) => s.openFile?.integration);
  const flow = cursor?.context.flow;
  const stepPath = cursor?.context.stepPath;
  // Selected one by one so new traces elsewhere do not replace a sample being edited.
  const atStep = useStudio((s) => (integration ? tracedInputs(s.runStats, integration, flow, stepPath).atStep : undefined));
  const atFlow = useStudio((s) => (integration ? tracedInputs(s.runStats, integration, flow, stepPath).atFlow : undefined));
  const cel = cursor?.context.cel;
  const scope = cursor?.scope;
  // The cursor context is new on every move; the sample changes only with the step or its scope.
  const scopeKey = scope ? `${scope.inErrorChain} ${scope.vars.map((v) => v.name).join(' ')}` : undefined;
  const hasCursor = cursor !== undefined;
  const choice = useMemo(
    () => (hasCursor ? sampleFor({ atStep, atFlow }, stepPath, scope) : undefined),
    [atStep, atFlow, stepPath, scopeKey, hasCursor],
  );
  const [expression, setExpression] = useState('');
  const [sampleText, setSampleText] = useState('');
  const sample = useMemo((): { sample: CelSample } | { problem: string } => {
    try {
      return { sample: JSON.parse(sampleText || '{"body": null, "vars": {}}') as CelSample };
    } catch (err) {
      return { problem: `the sample is not JSON: ${(err as Error).message}` };
    }
  }, [sampleText]);
  const evaluation = useCelEvaluation(expression, 'sample' in sample ? sample.sample : undefined);
  const result: CelEvaluation | { ok: false; stage: 'sample'; error: string } | undefined =
    expression.trim() && 'problem' in sample ? { ok: false, stage: 'sample', error: sample.problem } : evaluation;

  // A new expression under the cursor (or a new step) replaces what is in the boxes.
  useEffect(() => {
    if (cel) setExpression(cel.expression);
  }, [cel?.expression, cel?.span[0]]);
  useEffect(() => {
    if (choice) setSampleText(JSON.stringify(choice.sample, null, 2));
  }, [choice]);

  return (
    <div className="playground" aria-label="CEL playground" role="region">
      <div className="playground-inputs">
        <label className="playground-field">
          <span className="muted">
            Expression {cursor?.context.path && cel ? <code>{cursor.context.path}</code> : <em>(put the cursor in a CEL setting: a condition, a body, vars…)</em>}
          </span>
          <textarea aria-label="CEL expression" value={expression} spellCheck={false} rows={3} onChange={(e) => setExpression(e.target.value)} />
        </label>
        <label className="playground-field">
          <span className="muted">Sample message {choice ? `— ${SAMPLE_ORIGIN[choice.origin]}` : ''}</span>
          <textarea aria-label="Sample message" value={sampleText} spellCheck={false} rows={6} onChange={(e) => setSampleText(e.target.value)} />
        </label>
      </div>
      <div className="playground-result" aria-live="polite" aria-label="Result">
        {result === undefined ? (
          <span className="muted">The result shows here.</span>
        ) : result.ok ? (
          <>
            <span className="muted">{result.type}</span>
            <pre className="result-value">{JSON.stringify(result.value, null, 2)}</pre>
          </>
        ) : (
          <div className="result-error" role="alert">
            <strong>{result.stage === 'compile' ? 'Syntax error' : result.stage === 'sample' ? 'Sample' : 'Evaluation error'}</strong>: {result.error}
            {result.stage === 'compile' && 'offset' in result && result.offset !== undefined ? (
              <pre className="error-caret">
                {expression}
                {'\n'}
                {' '.repeat(result.offset)}^
              </pre>
            ) : null}
          </div>
        )}
      </div>
    </div>
  );
}
