import { useStudio } from '../../../store/studio-store.ts';
import { openFileAt } from '../editor-commands.ts';

/**
 * Where the open file stops parsing as YAML, while it does (half-typed text): the graph then
 * draws only what reads before the break and its edits are refused, so it says so and where,
 * with a way to that place in the text. The loader's own syntax problems say it, as in Problems.
 */
export function GraphSyntaxNotice({ integration, file }: { integration: string; file: string }) {
  const broken = useStudio((s) => s.designProblems[integration]?.find((p) => p.file === file && p.path === '' && p.message.startsWith('YAML syntax:')));
  if (!broken) return null;
  // The loader's message repeats the place ("… at line 11, column 20:"); the notice says it once.
  const what = broken.message.replace(/^YAML syntax:\s*/, '').replace(/\s+at line \d+, column \d+:?\s*$/, '');
  return (
    <div className="graph-syntax-notice" role="alert">
      <span>
        {file}:{broken.line}:{broken.col} does not parse as YAML ({what}): the graph shows only what reads before it, and edits on the graph wait until the text is fixed.
      </span>
      <button type="button" className="link" onClick={() => openFileAt({ integration, file }, broken.line, broken.col)}>
        Go to line {broken.line}
      </button>
    </div>
  );
}
