import type { RunRejection } from '../../../shared/trace-types.ts';

/** Blocks that verify who sent a request and turn it away with a 4xx: JWT, notes signatures, HMAC. */
export const VERIFY_BLOCK = /(^|-)verify(-|$)/;

interface StepLike {
  step: string;
  block?: string;
  outcome: string;
  output?: unknown;
}

/**
 * The verification step that ended a completed run, if one did: a verify block after which only
 * the steps it sits in were recorded (steps are recorded as they finish, so a switch holding it
 * comes later). Undefined when no verification step had the last word.
 */
export function lastVerifyStep(steps: readonly StepLike[]): StepLike | undefined {
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i];
    if (s.block !== undefined && VERIFY_BLOCK.test(s.block) && s.outcome === 'completed') {
      const onlyParentsAfter = steps.slice(i + 1).every((later) => s.step.startsWith(later.step + '.'));
      return onlyParentsAfter ? s : undefined;
    }
  }
  return undefined;
}

/**
 * What a verification step's own answer says (`vars.httpStatus` 4xx and `{error: reason}`, the
 * runtime's rejectRequest), when its output was recorded; undefined when it let the request through.
 */
export function rejectionInOutput(step: StepLike): RunRejection | undefined {
  const out = step.output as { body?: { error?: unknown }; vars?: { httpStatus?: unknown } } | undefined;
  const status = out?.vars?.httpStatus;
  const reason = out?.body?.error;
  if (typeof status !== 'number' || status < 400 || status > 499 || typeof reason !== 'string') return undefined;
  return { step: step.step, block: step.block ?? '', reason };
}

/** The `error` of a JSON answer body (`{"error": "invalid token: …"}`), as a rejection's reason. */
export function answerError(body: Uint8Array | undefined, contentType: string | undefined): string | undefined {
  if (!body || body.byteLength === 0 || body.byteLength > 64 * 1024 || (contentType !== undefined && !/json/i.test(contentType))) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) as { error?: unknown };
    return typeof parsed?.error === 'string' ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}
