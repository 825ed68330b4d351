import type { VerificationNote } from '../../../shared/request-types.ts';
import type { RunSummary } from '../../../shared/trace-types.ts';
import { jwtExpectation } from '../traces/jwt-expectation.ts';
import type { CaptureStore } from './capture-store.ts';

/**
 * What a rejected run's verification step expected against what its request carried: the notes
 * signature the body should have had and the one it had (the capture's own note), or a JWT's
 * required issuer, audience and algorithms against its claims. The reason alone when the request
 * is no longer captured.
 */
export function rejectionDetail(summary: RunSummary, captures: CaptureStore, definitionTexts: (s: RunSummary) => ReadonlyArray<{ text: string }>): VerificationNote | undefined {
  const rejection = summary.rejection;
  if (!rejection) return undefined;
  const note: VerificationNote = { ok: false, reason: rejection.reason };
  const capture = summary.captureId !== undefined ? captures.get(summary.captureId) : undefined;
  if (!capture) return note;
  if (rejection.block === 'jwt-verify') {
    const jwt = jwtExpectation(definitionTexts(summary), rejection.step, capture.record.requestHeaders.map(([k, v]) => [k, capture.redact(v)]));
    return jwt ? { ...note, ...jwt } : note;
  }
  const captured = captures.summaryOf(capture).verification;
  return captured && !captured.ok ? { ...note, ...(captured.expected !== undefined ? { expected: captured.expected, received: captured.received ?? '' } : {}) } : note;
}
