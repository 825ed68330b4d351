import { useState } from 'react';
import { JsonTree } from '../traces/JsonTree.tsx';
import { evaluateInRun } from './debugger-actions.ts';

interface Evaluation {
  expression: string;
  result: { value: unknown } | { error: string };
}

/** CEL evaluated in the paused run (`body`, `vars`, `headers`); the answers stay listed, newest first. */
export function EvaluateBox({ thread }: { thread: number }) {
  const [expression, setExpression] = useState('');
  const [history, setHistory] = useState<Evaluation[]>([]);
  const run = (): void => {
    const text = expression.trim();
    if (!text) return;
    void evaluateInRun(thread, text).then((result) => setHistory((h) => [{ expression: text, result }, ...h].slice(0, 20)));
  };
  return (
    <div className="debug-evaluate">
      <form
        className="debug-evaluate-form"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <input aria-label="CEL expression to evaluate" placeholder='CEL in this run, e.g. body.customer or size(vars.items) > 2' value={expression} onChange={(e) => setExpression(e.currentTarget.value)} spellCheck={false} />
        <button type="submit" disabled={!expression.trim()}>
          Evaluate
        </button>
      </form>
      <ol className="debug-evaluations" aria-label="Evaluations">
        {history.map((h, i) => (
          <li key={history.length - i}>
            <code>{h.expression}</code>
            {'error' in h.result ? <span className="error"> {h.result.error}</span> : <JsonTree value={h.result.value} label={`value of ${h.expression}`} />}
          </li>
        ))}
      </ol>
    </div>
  );
}
