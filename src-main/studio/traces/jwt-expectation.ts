import { decodeJwt, decodeProtectedHeader } from 'jose';
import { parse } from 'yaml';

/** What a jwt-verify step asked for, and what the token a request carried says, side by side. */
export interface JwtExpectation {
  expected: string;
  received: string;
}

interface JwtSettings {
  header?: unknown;
  issuer?: unknown;
  audience?: unknown;
  algorithms?: unknown;
}

/**
 * For a request a jwt-verify step rejected: the issuer, audience and algorithms the step requires
 * (from its settings in the definition that served the run) against the token's own header and
 * claims, read without verifying it. The signature and the secret are never shown.
 */
export function jwtExpectation(texts: ReadonlyArray<{ text: string }>, stepPath: string, requestHeaders: ReadonlyArray<[string, string]>, now = Date.now()): JwtExpectation | undefined {
  const settings = stepSettings(texts, stepPath);
  if (!settings) return undefined;
  const headerName = (typeof settings.header === 'string' ? settings.header : 'Authorization').toLowerCase();
  const expected: string[] = [];
  if (typeof settings.issuer === 'string') expected.push(`iss ${settings.issuer}`);
  if (typeof settings.audience === 'string') expected.push(`aud ${settings.audience}`);
  if (Array.isArray(settings.algorithms)) expected.push(`alg ${settings.algorithms.join(' or ')}`);
  expected.push('a valid signature, not expired');
  const raw = requestHeaders.find(([k]) => k.toLowerCase() === headerName)?.[1];
  if (raw === undefined || raw.trim() === '') return { expected: expected.join(' · '), received: `no ${headerName} header` };
  const token = raw.replace(/^Bearer\s+/i, '').trim();
  try {
    const header = decodeProtectedHeader(token);
    const claims = decodeJwt(token);
    const received: string[] = [];
    if (claims.iss !== undefined) received.push(`iss ${claims.iss}`);
    if (claims.aud !== undefined) received.push(`aud ${Array.isArray(claims.aud) ? claims.aud.join(', ') : claims.aud}`);
    if (header.alg !== undefined) received.push(`alg ${header.alg}`);
    if (claims.sub !== undefined) received.push(`sub ${claims.sub}`);
    if (typeof claims.exp === 'number') {
      const left = claims.exp * 1000 - now;
      received.push(left < 0 ? `expired ${Math.round(-left / 1000)} s ago` : `expires in ${Math.round(left / 1000)} s`);
    }
    return { expected: expected.join(' · '), received: received.join(' · ') || 'a token with no claims' };
  } catch {
    return { expected: expected.join(' · '), received: 'not a JWT (it does not decode)' };
  }
}

/** The settings of the step at a setting path (`flows.f.steps[2].switch.cases[0].steps[1]`). */
function stepSettings(texts: ReadonlyArray<{ text: string }>, path: string): JwtSettings | undefined {
  const keys = path.split(/\.|\[(\d+)\]/).filter((k) => k !== undefined && k !== '');
  for (const { text } of texts) {
    let node: unknown;
    try {
      node = parse(text);
    } catch {
      continue;
    }
    for (const key of keys) {
      if (node === null || typeof node !== 'object') {
        node = undefined;
        break;
      }
      node = Array.isArray(node) ? node[Number(key)] : (node as Record<string, unknown>)[key];
    }
    const settings = (node as Record<string, unknown> | undefined)?.['jwt-verify'];
    if (settings && typeof settings === 'object') return settings as JwtSettings;
  }
  return undefined;
}
