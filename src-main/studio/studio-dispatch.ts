import { isStudioMethod, type StudioApi, type StudioCallResult } from '../../shared/studio-api.ts';
import { errorMessage } from '../runtime/core/errors.ts';

/**
 * Runs one call that arrived over a transport (IPC or HTTP). Only names of the StudioApi list are
 * callable, so nothing else on the object (or its prototype) is reachable from a window; failures
 * come back as data with a message for people.
 */
export async function dispatchStudioCall(api: StudioApi, method: unknown, args: unknown): Promise<StudioCallResult> {
  if (!isStudioMethod(method)) return { ok: false, error: `"${String(method)}" is not a studio method` };
  if (!Array.isArray(args) || args.length > 8) return { ok: false, error: `arguments of ${method} must be a list` };
  try {
    const fn = api[method] as (...a: unknown[]) => Promise<unknown>;
    const value = await fn.apply(api, args);
    return { ok: true, value: value ?? null };
  } catch (err) {
    return { ok: false, error: errorMessage(err) };
  }
}
