import type { Settings } from '../../../core/component.ts';
import type { Logger } from '../../../core/logger.ts';
import type { httpClientDef } from '../http-client.def.ts';
import type { AuthStrategy } from './auth-strategy.ts';
import { basicAuth } from './basic-auth.ts';
import { bearerAuth } from './bearer-auth.ts';
import { cloudAuth, DEFAULT_METADATA_HOST } from './cloud-auth.ts';
import { oauth2Auth } from './oauth2-auth.ts';
import type { TokenTransport } from './token-transport.ts';

export type AuthSettings = Settings<(typeof httpClientDef.settings.auth)['fields']>;

const NEEDS: Record<AuthSettings['type'], ReadonlyArray<keyof AuthSettings>> = {
  bearer: ['token'],
  basic: ['username'],
  oauth2: ['tokenURL', 'clientID', 'clientSecret'],
  cloud: [],
};

/**
 * Settings a scheme needs, checked when the connector starts. Not at load: these values usually
 * come from variables (secrets) that `validate` does not know, and `type` itself may be chosen by
 * a variable, so the other schemes' settings may sit beside it unused.
 */
export function missingAuthSettings(auth: AuthSettings, path: string): string[] {
  return NEEDS[auth.type]
    .filter((name) => auth[name] === undefined || auth[name] === '')
    .map((name) => `${path}.auth.${name}: required with auth type ${auth.type}`);
}

export interface AuthContext {
  baseURL: URL;
  transport: TokenTransport;
  log: Logger;
  /** Environment lookup for GCE_METADATA_HOST. */
  env(name: string): string | undefined;
}

export function authFromSettings(auth: AuthSettings, ctx: AuthContext): AuthStrategy {
  switch (auth.type) {
    case 'bearer':
      return bearerAuth(auth.token!);
    case 'basic':
      return basicAuth(auth.username!, auth.password);
    case 'oauth2':
      return oauth2Auth({ tokenURL: auth.tokenURL!, clientID: auth.clientID!, clientSecret: auth.clientSecret!, scopes: auth.scopes }, ctx.transport, ctx.log);
    case 'cloud':
      return cloudAuth(
        {
          kind: auth.cloudToken,
          audience: auth.cloudAudience ?? ctx.baseURL.origin,
          scopes: auth.cloudScopes,
          metadataHost: ctx.env('GCE_METADATA_HOST') || DEFAULT_METADATA_HOST,
        },
        ctx.transport,
        ctx.log,
      );
  }
}
