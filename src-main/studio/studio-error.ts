import type { StudioErrorKind } from '../../shared/studio-errors.ts';

/**
 * A refusal meant for the person using the studio, with its kind (shared/studio-errors.ts): a
 * bad id or path is `user`, something that exists already or is in use `conflict`, something
 * missing `not-found`. Its message crosses the transport as is; any other error is `internal`,
 * and logged with its stack.
 */
export class StudioError extends Error {
  constructor(
    message: string,
    readonly kind: Exclude<StudioErrorKind, 'internal'> = 'user',
  ) {
    super(message);
    this.name = 'StudioError';
  }

  static conflict(message: string): StudioError {
    return new StudioError(message, 'conflict');
  }

  static notFound(message: string): StudioError {
    return new StudioError(message, 'not-found');
  }
}
