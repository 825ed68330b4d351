import type { FlowTestFailureView } from '../../../shared/flow-test-types.ts';

/** One failed expectation: what and how it differs, expected vs actual line by line, and where the run diverged. */
export function FailureView({ failure }: { failure: FlowTestFailureView }) {
  return (
    <div className="test-failure" role="group" aria-label={`Failure ${failure.what}`}>
      <p>
        <code>{failure.what}</code>: {failure.message}
      </p>
      {failure.diff ? (
        <pre className="test-diff" aria-label="Expected vs actual">
          <span className="muted">- expected + actual{'\n'}</span>
          {failure.diff.split('\n').map((line, i) => (
            <span key={i} className={line.startsWith('-') ? 'diff-expected' : line.startsWith('+') ? 'diff-actual' : undefined}>
              {line}
              {'\n'}
            </span>
          ))}
        </pre>
      ) : null}
      {failure.step ? (
        <p className="muted">
          diverged at <code>{failure.step}</code>
        </p>
      ) : null}
    </div>
  );
}
