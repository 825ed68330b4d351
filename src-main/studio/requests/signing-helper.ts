import { createHmac } from 'node:crypto';
import { SignJWT, type JWTHeaderParameters, type JWTPayload } from 'jose';
import type { HmacSignInput, JwtMintInput, JwtMintResult, SignatureResult, SigningSecret } from '../../../shared/request-types.ts';
import { encodeBody } from './body-bytes.ts';

/** Reads a cluster secret's value in the backend; undefined when there is none by that name. */
export type SecretValueOf = (name: string) => string | undefined;

/** RFC 7230 token characters: what a header name may hold. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The signing helper of the composer: an HMAC-SHA256 header for any body, in the shape the sender
 * of a webhook uses (GitHub's `X-Hub-Signature-256: sha256=<hex>`, Stripe's
 * `Stripe-Signature: t=…,v1=…`, notes' `X-Notes-Signature`). The secret is used here and never
 * answered back; no message quotes it.
 */
export function hmacSignature(input: HmacSignInput, secretOf: SecretValueOf, now: () => number = Date.now): SignatureResult {
  const header = typeof input?.header === 'string' ? input.header.trim() : '';
  if (!HEADER_NAME.test(header)) return { ok: false, reason: `"${header.slice(0, 60)}" is not a header name; use letters, digits and -, e.g. X-Hub-Signature-256` };
  if (input.encoding !== 'hex' && input.encoding !== 'base64') return { ok: false, reason: 'encoding is hex or base64' };
  if (input.payload !== 'body' && input.payload !== 'timestamp.body') return { ok: false, reason: 'what is signed is the body, or timestamp.body' };
  const prefix = typeof input.prefix === 'string' ? input.prefix : '';
  if (/[\r\n]/.test(prefix)) return { ok: false, reason: 'the prefix cannot hold a line break' };
  const secret = secretValue(input.secret, secretOf);
  if (!secret.ok) return secret;
  if (input.body?.kind === 'multipart') {
    return { ok: false, reason: 'a multipart body gets a new boundary each time it is sent, so its signature could not match; sign a raw or JSON body' };
  }
  let bytes: Buffer;
  try {
    bytes = encodeBody(input.body ?? { kind: 'none' }).bytes ?? Buffer.alloc(0);
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
  const hmac = createHmac('sha256', secret.value);
  if (input.payload === 'body') {
    return { ok: true, header, value: prefix + hmac.update(bytes).digest(input.encoding) };
  }
  const t = Number.isInteger(input.timestamp) && input.timestamp! > 0 ? input.timestamp! : Math.floor(now() / 1000);
  const signature = hmac.update(`${t}.`).update(bytes).digest(input.encoding);
  return { ok: true, header, value: `t=${t},${prefix}${signature}` };
}

/**
 * An HS256 JWT (jose's SignJWT) from the header and claims as the user wrote them. `alg` is HS256
 * whatever the header says otherwise would be a token nobody could verify with this secret, so a
 * different `alg` is refused rather than silently replaced.
 */
export async function mintHs256Jwt(input: JwtMintInput, secretOf: SecretValueOf): Promise<JwtMintResult> {
  const header = jsonObject(input?.header, 'the JWT header');
  if (!header.ok) return header;
  const claims = jsonObject(input.claims, 'the claims');
  if (!claims.ok) return claims;
  const alg = header.value.alg ?? 'HS256';
  if (alg !== 'HS256') return { ok: false, reason: `the header's alg is ${JSON.stringify(alg)}; this helper signs HS256 only` };
  for (const claim of ['exp', 'iat', 'nbf'] as const) {
    const v = claims.value[claim];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) return { ok: false, reason: `the claim ${claim} must be a number of seconds since 1970, not ${JSON.stringify(v)}` };
  }
  const secret = secretValue(input.secret, secretOf);
  if (!secret.ok) return secret;
  try {
    const token = await new SignJWT(claims.value as JWTPayload)
      .setProtectedHeader({ ...(header.value as Partial<JWTHeaderParameters>), alg: 'HS256' })
      .sign(new TextEncoder().encode(secret.value));
    return { ok: true, token };
  } catch (err) {
    // jose's messages name the claim or header at fault, never the key.
    return { ok: false, reason: `the token could not be signed: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function secretValue(source: SigningSecret | undefined, secretOf: SecretValueOf): { ok: true; value: string } | { ok: false; reason: string } {
  if (source?.kind === 'typed') {
    if (typeof source.value !== 'string' || source.value === '') return { ok: false, reason: 'type the secret, or pick a cluster secret' };
    return { ok: true, value: source.value };
  }
  if (source?.kind === 'secret') {
    const name = typeof source.name === 'string' ? source.name : '';
    if (name === '') return { ok: false, reason: 'pick a cluster secret, or type the secret' };
    const value = secretOf(name);
    if (value === undefined) return { ok: false, reason: `there is no cluster secret "${name.slice(0, 80)}"; create it in the Secrets panel` };
    return { ok: true, value };
  }
  return { ok: false, reason: 'the secret is either typed in or a cluster secret' };
}

function jsonObject(text: unknown, what: string): { ok: true; value: Record<string, unknown> } | { ok: false; reason: string } {
  if (typeof text !== 'string') return { ok: false, reason: `${what} must be JSON text` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `${what} is not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: `${what} must be a JSON object, like {"sub": "me"}` };
  return { ok: true, value: value as Record<string, unknown> };
}
