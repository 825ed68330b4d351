/**
 * What kind of failure a StudioApi call ended in, so the renderer can show a refusal, a conflict,
 * a missing thing and a bug differently (and only the last is the studio's fault):
 *
 * - `user`: the request was wrong (a bad name, a file that does not parse); fix the input.
 * - `conflict`: it collides with the current state (exists already, in use, changed meanwhile).
 * - `not-found`: what it names does not exist (any more).
 * - `internal`: a bug or an unexpected failure; the studio logged it with its stack.
 */
export type StudioErrorKind = 'user' | 'conflict' | 'not-found' | 'internal';

export const studioErrorKinds: readonly StudioErrorKind[] = ['user', 'conflict', 'not-found', 'internal'];

/** How each kind is introduced in the message a person reads; a user error needs no label. */
const LABEL: Record<StudioErrorKind, string> = {
  user: '',
  conflict: 'Conflict: ',
  'not-found': 'Not found: ',
  internal: 'Internal error (logged by the studio): ',
};

/**
 * A failed call as the renderer receives it. Its message carries the kind as a label, because
 * Electron's contextBridge copies only an error's message into the page (electron/electron#25596):
 * `studioErrorKindOf` reads the kind back from either the property or the label.
 */
export class StudioCallError extends Error {
  constructor(
    readonly kind: StudioErrorKind,
    readonly reason: string,
  ) {
    super(`${LABEL[kind]}${reason}`);
    this.name = 'StudioCallError';
  }
}

/** The kind of a failed call's error, also after the contextBridge stripped it to its message. */
export function studioErrorKindOf(err: unknown): StudioErrorKind {
  if (err instanceof StudioCallError) return err.kind;
  const message = err instanceof Error ? err.message : String(err);
  for (const kind of studioErrorKinds) if (LABEL[kind] && message.startsWith(LABEL[kind])) return kind;
  return 'user';
}

/** The HTTP status web mode answers a failed call with. */
export const studioErrorStatus: Record<StudioErrorKind, number> = { user: 400, conflict: 409, 'not-found': 404, internal: 500 };
