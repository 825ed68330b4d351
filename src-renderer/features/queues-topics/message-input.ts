/** Reads the JSON a person typed for a test message: the body (any JSON) and headers (an object of strings). */
export function parseMessageInput(bodyText: string, headersText: string): { ok: true; body: unknown; headers: Record<string, string> } | { ok: false; error: string } {
  let body: unknown;
  try {
    body = bodyText.trim() === '' ? null : JSON.parse(bodyText);
  } catch (err) {
    return { ok: false, error: `The body is not JSON: ${(err as Error).message}` };
  }
  if (headersText.trim() === '') return { ok: true, body, headers: {} };
  let headers: unknown;
  try {
    headers = JSON.parse(headersText);
  } catch (err) {
    return { ok: false, error: `The headers are not JSON: ${(err as Error).message}` };
  }
  if (!headers || typeof headers !== 'object' || Array.isArray(headers)) return { ok: false, error: 'The headers must be a JSON object, e.g. {"tenant": "acme"}' };
  for (const [k, v] of Object.entries(headers)) {
    if (typeof v !== 'string') return { ok: false, error: `Header "${k}" must be a string, got ${JSON.stringify(v)}` };
  }
  return { ok: true, body, headers: headers as Record<string, string> };
}
