/** Where something is in a definition file: 1-based line and column. */
export interface SourceLocation {
  file: string;
  line: number;
  col: number;
}

/** One problem found while loading, with where it is and the setting path it concerns. */
export interface LoadProblem {
  location: SourceLocation;
  /** e.g. `flows.orders.steps[2].method` */
  path: string;
  message: string;
}

export function formatProblem(p: LoadProblem): string {
  const where = `${p.location.file}:${p.location.line}:${p.location.col}`;
  return p.path ? `${where} ${p.path}: ${p.message}` : `${where} ${p.message}`;
}

/** Every problem a load found, reported together rather than the first only. */
export class LoadError extends Error {
  readonly problems: LoadProblem[];

  constructor(problems: LoadProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'LoadError';
    this.problems = problems;
  }
}

/** A failure while a message runs through a flow. */
export class FlowError extends Error {
  /** HTTP status a source may answer with, when the failure has an obvious one. */
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FlowError';
    this.status = options.status;
  }
}

/** The status a failure calls for: a FlowError's own, else 500 (the failure is ours). */
export function errorStatus(err: unknown): number {
  return err instanceof FlowError && err.status !== undefined ? err.status : 500;
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
