import { defineBlock } from '../../core/component.ts';

export const jwtVerifyDef = defineBlock({
  type: 'jwt-verify',
  summary: 'A filter that verifies a JWT from a request header and rejects with 401 when it is not valid.',
  description:
    'Reads the token from the variable named like the header (list the header in the http source `headers:` so it reaches the flow), strips a `Bearer ` prefix, and verifies signature, expiry, and optionally issuer and audience. Give exactly one of `secret` (HS*), `publicKey` (PEM, RS*/ES*/PS*/EdDSA) or `jwksURL`. The verified claims land in `claimsVar`. A missing or invalid token ends the flow there with `status` and `{error: reason}` (an http route answers them before any SSE frame); no error chain runs.',
  settings: {
    header: { type: 'string', default: 'Authorization', description: 'Header (variable) holding the token.' },
    secret: { type: 'string', description: 'Shared secret for HS256/384/512; reference a secret variable, e.g. ${JWT_SECRET}.' },
    publicKey: { type: 'string', description: 'PEM public key (SPKI) for RS*, PS*, ES* or EdDSA.' },
    jwksURL: { type: 'string', description: 'URL of a JSON Web Key Set; keys are fetched and cached.', example: 'https://issuer.example/.well-known/jwks.json' },
    algorithms: { type: 'list', description: 'Accepted algorithms; default: those the key type allows.', items: { type: 'string', description: 'e.g. RS256' } },
    issuer: { type: 'string', description: 'Required `iss` claim.' },
    audience: { type: 'string', description: 'Required `aud` claim.' },
    clockTolerance: { type: 'duration', default: '5s', description: 'Allowed clock skew for exp and nbf.' },
    claimsVar: { type: 'string', default: 'jwt', description: 'Variable receiving the verified claims.' },
    status: { type: 'int', default: 401, minimum: 400, maximum: 499, description: 'Status of the rejection.' },
  },
  example: `- jwt-verify:
    secret: \${JWT_SECRET}
    issuer: https://auth.example.com`,
});
