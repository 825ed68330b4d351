import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey, type KeyObject } from 'jose';
import { createSecretKey, createPublicKey } from 'node:crypto';
import { Halt, implementBlock } from '../../core/component.ts';
import { errorMessage } from '../../core/errors.ts';
import type { Message } from '../../core/message.ts';
import { jwtVerifyDef } from './jwt-verify.def.ts';


export const jwtVerifyBlock = implementBlock(
  jwtVerifyDef,
  (s) => {
    let key: KeyObject | JWTVerifyGetKey;
    if (s.secret !== undefined) key = createSecretKey(Buffer.from(s.secret, 'utf8'));
    else if (s.publicKey !== undefined) {
      try {
        key = createPublicKey(s.publicKey);
      } catch (err) {
        throw new Error(`publicKey is not a PEM public key: ${errorMessage(err)}`);
      }
    } else key = createRemoteJWKSet(new URL(s.jwksURL!));
    const headerLower = s.header.toLowerCase();
    const reject = (msg: Message, reason: string): Halt => {
      msg.vars.httpStatus = s.status;
      msg.body = { error: reason };
      return new Halt(msg);
    };
    return {
      async process(msg) {
        const entry = Object.entries(msg.vars).find(([k]) => k.toLowerCase() === headerLower);
        const raw = entry?.[1];
        if (typeof raw !== 'string' || raw.trim() === '') return reject(msg, `missing ${s.header} header`);
        const token = raw.replace(/^Bearer\s+/i, '').trim();
        try {
          const { payload } = await jwtVerify(token, key as KeyObject, {
            algorithms: s.algorithms,
            issuer: s.issuer,
            audience: s.audience,
            clockTolerance: Math.round(s.clockTolerance / 1000),
          });
          msg.vars[s.claimsVar] = payload;
          return msg;
        } catch (err) {
          return reject(msg, `invalid token: ${errorMessage(err)}`);
        }
      },
    };
  },
  (s) => {
    const given = [s.secret, s.publicKey, s.jwksURL].filter((v) => v !== undefined).length;
    return given === 1 ? [] : ['jwt-verify needs exactly one of secret, publicKey or jwksURL'];
  },
);
