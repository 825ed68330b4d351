import { errorMessage } from '../../../core/errors.ts';
import type { Logger } from '../../../core/logger.ts';
import type { AuthStrategy } from './auth-strategy.ts';
import { TokenCache, type MintedToken } from './token-cache.ts';
import { endpointLabel, headerValue, type TokenResponse, type TokenTransport } from './token-transport.ts';

export interface OAuth2Settings {
  tokenURL: string;
  clientID: string;
  clientSecret: string;
  scopes?: string[];
}

/** RFC 6749 §2.3.1 lets a client authenticate in a Basic header or in the form; servers differ. */
type ClientAuthStyle = 'header' | 'form';

/**
 * OAuth 2.0 client-credentials grant (RFC 6749 §4.4). The token is minted on first use, cached
 * until shortly before it expires and minted again after. Like Go's x/oauth2, the client
 * credentials go in a Basic header first and, if the endpoint refuses that, in the form; the
 * style that worked is kept.
 */
export function oauth2Auth(settings: OAuth2Settings, transport: TokenTransport, log: Logger): AuthStrategy {
  const url = new URL(settings.tokenURL);
  const where = endpointLabel(url);
  let style: ClientAuthStyle | undefined;

  const post = (as: ClientAuthStyle): Promise<TokenResponse> => {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (settings.scopes?.length) form.set('scope', settings.scopes.join(' '));
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (as === 'header') {
      const pair = `${encodeURIComponent(settings.clientID)}:${encodeURIComponent(settings.clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
    } else {
      form.set('client_id', settings.clientID);
      form.set('client_secret', settings.clientSecret);
    }
    return transport(url, { method: 'POST', headers, body: form.toString() });
  };

  const mint = async (): Promise<MintedToken> => {
    let res: TokenResponse;
    try {
      res = await post(style ?? 'header');
      if (style === undefined && (res.status === 400 || res.status === 401)) {
        res = await post('form');
        if (res.status < 300) style = 'form';
      }
    } catch (err) {
      throw new Error(`oauth2: the token endpoint ${where} could not be reached: ${errorMessage(err)}`);
    }
    if (res.status === 401) {
      throw new Error(
        `oauth2: the token endpoint ${where} refused the client credentials (401${oauthError(res)}); check clientID "${settings.clientID}" and clientSecret`,
      );
    }
    if (res.status >= 300) throw new Error(`oauth2: the token endpoint ${where} answered ${res.status}${oauthError(res)}`);
    style ??= 'header';
    const token = parseToken(res);
    if (!token) throw new Error(`oauth2: the token endpoint ${where} answered ${res.status} without an access_token`);
    log.debug('oauth2 token minted', { tokenURL: where, expiresInSeconds: token.expiresIn });
    return {
      value: `${token.type} ${token.accessToken}`,
      expiresAt: token.expiresIn === undefined ? undefined : Date.now() + token.expiresIn * 1000,
    };
  };

  const cache = new TokenCache(mint);
  return { authorization: () => cache.get(), rejected: (value) => cache.invalidate(value) };
}

interface ParsedToken {
  accessToken: string;
  type: string;
  expiresIn: number | undefined;
}

/** JSON per RFC 6749 §5.1; some older servers answer form-encoded, which is read the same way. */
function parseToken(res: TokenResponse): ParsedToken | undefined {
  const fields = fieldsOf(res);
  const accessToken = fields.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') return undefined;
  const rawType = typeof fields.token_type === 'string' && fields.token_type !== '' ? fields.token_type : 'Bearer';
  const expiresIn = Number(fields.expires_in);
  return {
    accessToken,
    // Servers write "bearer"; RFC 6750 spells the scheme "Bearer" and some APIs insist on it.
    type: rawType.toLowerCase() === 'bearer' ? 'Bearer' : rawType,
    expiresIn: fields.expires_in !== undefined && Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : undefined,
  };
}

function fieldsOf(res: TokenResponse): Record<string, unknown> {
  const type = headerValue(res.headers, 'content-type') ?? '';
  if (/application\/x-www-form-urlencoded|text\/plain/i.test(type)) return Object.fromEntries(new URLSearchParams(res.text));
  try {
    const parsed: unknown = JSON.parse(res.text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** `error` and `error_description` of RFC 6749 §5.2, which name the problem without secrets. */
function oauthError(res: TokenResponse): string {
  const f = fieldsOf(res);
  const parts = [f.error, f.error_description].filter((p): p is string => typeof p === 'string' && p !== '');
  return parts.length ? `: ${parts.join(': ').slice(0, 200)}` : '';
}
