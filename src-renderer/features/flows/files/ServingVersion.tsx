import type { RunState } from '../../../../shared/studio-api.ts';
import { clockTime } from '../../../shell/format.ts';

/**
 * Which version of the definition a running integration serves and when it was loaded. Keyed on
 * the generation, so every reload replays the highlight and a user sees the save took effect.
 */
export function ServingVersion({ serving, integration }: { serving: NonNullable<RunState['serving']>; integration: string }) {
  return (
    <p
      key={serving.generation}
      className="serving"
      aria-label={`${integration} serves version ${serving.generation}`}
      data-generation={serving.generation}
      title={`Working-copy version ${serving.generation}, digest ${serving.digest} of its definition files; a save reloads it, a save with problems keeps this version serving. Runs name the version that served them.`}
    >
      serving working copy <strong className="wc-version">v{serving.generation}</strong> · <code>{serving.digest}</code> · loaded {clockTime(serving.loadedAt)}
    </p>
  );
}
