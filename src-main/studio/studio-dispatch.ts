import { argumentSpecs, isStudioMethod, type StudioApi, type StudioCallResult } from '../../shared/studio-api.ts';
import { argumentProblem } from '../../shared/studio-arguments.ts';
import type { StudioErrorKind } from '../../shared/studio-errors.ts';
import { StudioError } from './studio-error.ts';

/** Where an internal failure's stack goes; the studio's stderr by default. */
export type InternalErrorLog = (method: string, err: unknown) => void;

const logToStderr: InternalErrorLog = (method, err) => console.error(`studio: ${method} failed unexpectedly:`, err instanceof Error ? (err.stack ?? err.message) : err);

/**
 * Runs one call that arrived over a transport (IPC or HTTP). Only names of the StudioApi list are
 * callable, so nothing else on the object (or its prototype) is reachable from a window; their
 * arguments are checked against the method's specs (shared/studio-arguments.ts); failures
 * come back as data: a message for people and its kind. An unexpected failure is logged with its
 * stack, since the person seeing "internal error" cannot act on it and a developer needs where.
 */
export async function dispatchStudioCall(api: StudioApi, method: unknown, args: unknown, logInternal: InternalErrorLog = logToStderr): Promise<StudioCallResult> {
  if (!isStudioMethod(method)) return { ok: false, error: `"${String(method)}" is not a studio method`, kind: 'user' };
  if (!Array.isArray(args) || args.length > 8) return { ok: false, error: `arguments of ${method} must be a list`, kind: 'user' };
  // Checked before the method runs: it may take them as the types its signature says.
  const problem = argumentProblem(method, argumentSpecs(method), args);
  if (problem) return { ok: false, error: problem, kind: 'user' };
  try {
    const fn = api[method] as (...a: unknown[]) => Promise<unknown>;
    const value = await fn.apply(api, args);
    return { ok: true, value: value ?? null };
  } catch (err) {
    const kind = kindOf(err);
    if (kind === 'internal') logInternal(method, err);
    return { ok: false, error: err instanceof Error ? err.message : String(err), kind };
  }
}

/**
 * A StudioError says its kind; the platform's API errors (called in process) say it by status;
 * anything else is unexpected.
 */
export function kindOf(err: unknown): StudioErrorKind {
  if (err instanceof StudioError) return err.kind;
  const status = err instanceof Error && err.name === 'ApiError' ? (err as Error & { status?: unknown }).status : undefined;
  if (typeof status === 'number') {
    if (status === 404) return 'not-found';
    if (status === 409) return 'conflict';
    if (status >= 400 && status < 500) return 'user';
  }
  return 'internal';
}
