import type { JWTVerifyGetKey, KeyObject } from 'jose';
import { createSecretKey, createPublicKey } from 'node:crypto';
import { implementBlock } from '../../core/component.ts';
import { errorMessage } from '../../core/errors.ts';
import { rejectRequest } from '../../core/rejection.ts';
import { jwtVerifyDef } from './jwt-verify.def.ts';

export const jwtVerifyBlock = implementBlock(
  jwtVerifyDef,
  (s) => {
    // jose is loaded by the first token this block checks, not when a flow holding it loads.
    let jose: Promise<typeof import('jose')> | undefined;
    let key: KeyObject | URL;
    let remoteKeys: JWTVerifyGetKey | undefined;
    if (s.secret !== undefined) key = createSecretKey(Buffer.from(s.secret, 'utf8'));
    else if (s.publicKey !== undefined) {
      try {
        key = createPublicKey(s.publicKey);
      } catch (err) {
        throw new Error(`publicKey is not a PEM public key: ${errorMessage(err)}`);
      }
    } else key = new URL(s.jwksURL!);
    const headerLower = s.header.toLowerCase();
    return {
      async process(msg) {
        const entry = Object.entries(msg.vars).find(([k]) => k.toLowerCase() === headerLower);
        const raw = entry?.[1];
        if (typeof raw !== 'string' || raw.trim() === '') return rejectRequest(msg, s.status, `missing ${s.header} header`);
        const token = raw.replace(/^Bearer\s+/i, '').trim();
        try {
          const { jwtVerify, createRemoteJWKSet } = await (jose ??= import('jose'));
          const verifyKey = key instanceof URL ? (remoteKeys ??= createRemoteJWKSet(key)) : key;
          const { payload } = await jwtVerify(token, verifyKey as KeyObject, {
            algorithms: s.algorithms,
            issuer: s.issuer,
            audience: s.audience,
            clockTolerance: Math.round(s.clockTolerance / 1000),
          });
          msg.vars[s.claimsVar] = payload;
          return msg;
        } catch (err) {
          return rejectRequest(msg, s.status, `invalid token: ${errorMessage(err)}`);
        }
      },
    };
  },
  (s) => {
    const given = [s.secret, s.publicKey, s.jwksURL].filter((v) => v !== undefined).length;
    return given === 1 ? [] : ['jwt-verify needs exactly one of secret, publicKey or jwksURL'];
  },
);
