/**
 * Sets a time claim (`iat`, `exp`, `nbf`: seconds since 1970) in the claims as the user wrote them,
 * keeping the others; claims that do not parse are left alone and the reason is given.
 */
export function setClaimTime(claimsText: string, claim: 'iat' | 'exp' | 'nbf', seconds: number): { ok: true; text: string } | { ok: false; reason: string } {
  let claims: unknown;
  try {
    claims = claimsText.trim() === '' ? {} : JSON.parse(claimsText);
  } catch (err) {
    return { ok: false, reason: `the claims are not valid JSON (${err instanceof Error ? err.message : String(err)}); fix them before setting ${claim}` };
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return { ok: false, reason: `the claims must be a JSON object before ${claim} can be set` };
  return { ok: true, text: JSON.stringify({ ...(claims as Record<string, unknown>), [claim]: seconds }, null, 2) };
}
