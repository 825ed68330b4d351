import { errorMessage } from '../../../core/errors.ts';
import type { Logger } from '../../../core/logger.ts';
import type { AuthStrategy } from './auth-strategy.ts';
import { TokenCache, type MintedToken } from './token-cache.ts';
import { headerValue, type TokenResponse, type TokenTransport } from './token-transport.ts';

export interface CloudSettings {
  kind: 'identity' | 'access';
  /** Audience of an identity token. */
  audience: string;
  /** Scopes of an access token; none means the service account's own. */
  scopes?: string[];
  /** host[:port] of the instance metadata server. */
  metadataHost: string;
}

/** Where Google's client libraries look when GCE_METADATA_HOST does not say otherwise. */
export const DEFAULT_METADATA_HOST = 'metadata.google.internal';

const ACCOUNT_PATH = '/computeMetadata/v1/instance/service-accounts/default';

/**
 * Tokens minted by the cloud instance metadata server for the instance's service account: an
 * identity token (a JWT for one audience) or an OAuth access token. Nothing is written anywhere;
 * tokens live in memory until shortly before they expire.
 */
export function cloudAuth(settings: CloudSettings, transport: TokenTransport, log: Logger): AuthStrategy {
  const host = settings.metadataHost.replace(/^https?:\/\//, '').replace(/\/+$/, '');
  const url =
    settings.kind === 'identity'
      ? new URL(`http://${host}${ACCOUNT_PATH}/identity?audience=${encodeURIComponent(settings.audience)}`)
      : new URL(`http://${host}${ACCOUNT_PATH}/token${settings.scopes?.length ? `?scopes=${encodeURIComponent(settings.scopes.join(','))}` : ''}`);

  const mint = async (): Promise<MintedToken> => {
    let res: TokenResponse;
    try {
      res = await transport(url, { method: 'GET', headers: { 'metadata-flavor': 'Google' } });
    } catch (err) {
      throw new Error(
        `cloud auth: no instance metadata server is reachable at ${host} (${errorMessage(err)}); auth type cloud works only on a cloud instance, so drive auth.type from an environment variable to use another scheme elsewhere`,
      );
    }
    if (headerValue(res.headers, 'metadata-flavor') !== 'Google') {
      throw new Error(`cloud auth: ${host} answered without "Metadata-Flavor: Google", so it is not an instance metadata server`);
    }
    if (res.status !== 200) {
      throw new Error(`cloud auth: the metadata server refused the ${settings.kind} token (${res.status}): ${res.text.trim().slice(0, 200)}`);
    }
    const token = settings.kind === 'identity' ? identityToken(res.text, (await import('jose')).decodeJwt) : accessToken(res.text);
    log.debug('cloud token minted', { kind: settings.kind, expiresAt: token.expiresAt && new Date(token.expiresAt).toISOString() });
    return token;
  };

  const cache = new TokenCache(mint);
  return { authorization: () => cache.get(), rejected: (value) => cache.invalidate(value) };
}

/** `decodeJwt` is jose's, loaded by the first identity token minted. */
function identityToken(text: string, decodeJwt: (jwt: string) => { exp?: number }): MintedToken {
  const jwt = text.trim();
  let exp: number | undefined;
  try {
    exp = decodeJwt(jwt).exp;
  } catch {
    throw new Error('cloud auth: the metadata server answered an identity token that is not a JWT');
  }
  return { value: `Bearer ${jwt}`, expiresAt: exp === undefined ? undefined : exp * 1000 };
}

function accessToken(text: string): MintedToken {
  let parsed: { access_token?: unknown; expires_in?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new Error('cloud auth: the metadata server answered an access token response that is not JSON');
  }
  if (typeof parsed.access_token !== 'string' || parsed.access_token === '') {
    throw new Error('cloud auth: the metadata server answered without an access_token');
  }
  const expiresIn = Number(parsed.expires_in);
  return { value: `Bearer ${parsed.access_token}`, expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : undefined };
}
