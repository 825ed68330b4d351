import { useEffect, useState } from 'react';
import type { HmacSignInput, RequestBody, SigningSecret } from '../../../shared/request-types.ts';
import type { SecretSummary } from '../../../shared/resource-types.ts';
import { mintJwt, signBodyHmac } from '../../api/request-actions.ts';
import { studio } from '../../api/studio-client.ts';
import { setClaimTime } from './jwt-claims.ts';

type Scheme = Pick<HmacSignInput, 'header' | 'prefix' | 'encoding' | 'payload'>;

/** How well-known webhook senders sign; every field stays editable. */
const PRESETS: Array<{ id: string; label: string; scheme: Scheme }> = [
  { id: 'github', label: 'GitHub (X-Hub-Signature-256)', scheme: { header: 'X-Hub-Signature-256', prefix: 'sha256=', encoding: 'hex', payload: 'body' } },
  { id: 'stripe', label: 'Stripe-like (t=…,v1=…)', scheme: { header: 'Stripe-Signature', prefix: 'v1=', encoding: 'hex', payload: 'timestamp.body' } },
  { id: 'notes', label: 'notes (X-Notes-Signature)', scheme: { header: 'X-Notes-Signature', prefix: 'sha256=', encoding: 'hex', payload: 'body' } },
  { id: 'base64', label: 'base64 digest (X-Signature)', scheme: { header: 'X-Signature', prefix: '', encoding: 'base64', payload: 'body' } },
];

export interface SigningHelperProps {
  /** The body as it will be sent (environment variables filled in). */
  body: RequestBody;
  /** Puts a header into the composer, replacing one of the same name. */
  setHeader(name: string, value: string): void;
  note(text: string, bad?: boolean): void;
}

/**
 * Signs the composer's body with HMAC-SHA256 in the shape a webhook sender uses, and mints HS256
 * JWTs for the Authorization header. The crypto runs in the backend (node:crypto, jose); the
 * secret is typed here or named from the Secrets panel, and a typed one stays in this component:
 * never in the saved request, the history or a message.
 */
export function SigningHelper({ body, setHeader, note }: SigningHelperProps) {
  const [source, setSource] = useState<'typed' | 'secret'>('typed');
  const [typed, setTyped] = useState('');
  const [secretName, setSecretName] = useState('');
  const [secrets, setSecrets] = useState<SecretSummary[] | string | undefined>(undefined);
  const [scheme, setScheme] = useState<Scheme>(PRESETS[0].scheme);
  const [jwtHeader, setJwtHeader] = useState('{\n  "alg": "HS256",\n  "typ": "JWT"\n}');
  const [claims, setClaims] = useState('{\n  "sub": "studio"\n}');

  useEffect(() => {
    if (source !== 'secret' || secrets !== undefined) return;
    studio.listSecrets().then(
      (list) => {
        setSecrets(list);
        if (list.length > 0) setSecretName((n) => n || list[0].name);
      },
      (err: unknown) => setSecrets(err instanceof Error ? err.message : String(err)),
    );
  }, [source, secrets]);

  const secret = (): SigningSecret => (source === 'typed' ? { kind: 'typed', value: typed } : { kind: 'secret', name: secretName });
  const presetId = PRESETS.find((p) => JSON.stringify(p.scheme) === JSON.stringify(scheme))?.id ?? 'custom';

  const sign = async (): Promise<void> => {
    const r = await signBodyHmac({ ...scheme, body, secret: secret() });
    if (!r.ok) return note(r.reason, true);
    setHeader(r.header, r.value);
    note(`Signed the body as it is now: ${r.header} set. Change the body and the signature no longer matches.`);
  };

  const mint = async (): Promise<void> => {
    const r = await mintJwt({ header: jwtHeader, claims, secret: secret() });
    if (!r.ok) return note(r.reason, true);
    setHeader('Authorization', `Bearer ${r.token}`);
    note('Minted an HS256 token: Authorization set to Bearer <token>.');
  };

  const stamp = (claim: 'iat' | 'exp', offsetSeconds: number): void => {
    const next = setClaimTime(claims, claim, Math.floor(Date.now() / 1000) + offsetSeconds);
    if (next.ok) setClaims(next.text);
    else note(next.reason, true);
  };

  return (
    <div className="signing-helper" role="group" aria-label="Signing helper">
      <fieldset className="signing-secret">
        <legend>Secret</legend>
        <select aria-label="Secret source" value={source} onChange={(e) => setSource(e.target.value === 'secret' ? 'secret' : 'typed')}>
          <option value="typed">typed here</option>
          <option value="secret">cluster secret</option>
        </select>
        {source === 'typed' ? (
          <input
            type="password"
            aria-label="Signing secret"
            autoComplete="off"
            spellCheck={false}
            placeholder="the shared secret (kept in this window only)"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        ) : typeof secrets === 'string' ? (
          <span className="field-error">{secrets}</span>
        ) : secrets && secrets.length === 0 ? (
          <span className="muted">No cluster secrets yet; add one in the Secrets panel.</span>
        ) : (
          <select aria-label="Cluster secret" value={secretName} onChange={(e) => setSecretName(e.target.value)}>
            {(secrets ?? []).map((s) => (
              <option key={s.name}>{s.name}</option>
            ))}
          </select>
        )}
      </fieldset>

      <fieldset className="signing-hmac">
        <legend>HMAC-SHA256 of the body</legend>
        <label>
          <span className="muted">as</span>
          <select
            aria-label="Signature preset"
            value={presetId}
            onChange={(e) => {
              const p = PRESETS.find((x) => x.id === e.target.value);
              if (p) setScheme(p.scheme);
            }}
          >
            {PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
            <option value="custom" disabled>
              custom
            </option>
          </select>
        </label>
        <label>
          <span className="muted">header</span>
          <input aria-label="Signature header" value={scheme.header} onChange={(e) => setScheme({ ...scheme, header: e.target.value })} />
        </label>
        <label>
          <span className="muted">prefix</span>
          <input aria-label="Signature prefix" className="narrow" value={scheme.prefix} onChange={(e) => setScheme({ ...scheme, prefix: e.target.value })} />
        </label>
        <label>
          <span className="muted">encoding</span>
          <select aria-label="Signature encoding" value={scheme.encoding} onChange={(e) => setScheme({ ...scheme, encoding: e.target.value === 'base64' ? 'base64' : 'hex' })}>
            <option value="hex">hex</option>
            <option value="base64">base64</option>
          </select>
        </label>
        <label>
          <span className="muted">signs</span>
          <select aria-label="Signed content" value={scheme.payload} onChange={(e) => setScheme({ ...scheme, payload: e.target.value === 'timestamp.body' ? 'timestamp.body' : 'body' })}>
            <option value="body">the body</option>
            <option value="timestamp.body">timestamp.body (t=…,)</option>
          </select>
        </label>
        <button type="button" onClick={() => void sign()}>
          Sign body
        </button>
      </fieldset>

      <fieldset className="signing-jwt">
        <legend>HS256 JWT for Authorization</legend>
        <label className="jwt-part">
          <span className="muted">header</span>
          <textarea aria-label="JWT header" rows={4} spellCheck={false} value={jwtHeader} onChange={(e) => setJwtHeader(e.target.value)} />
        </label>
        <label className="jwt-part">
          <span className="muted">claims</span>
          <textarea aria-label="JWT claims" rows={4} spellCheck={false} value={claims} onChange={(e) => setClaims(e.target.value)} />
        </label>
        <div className="jwt-actions">
          <button type="button" onClick={() => stamp('iat', 0)}>
            iat = now
          </button>
          <button type="button" onClick={() => stamp('exp', 3600)}>
            exp = in 1 hour
          </button>
          <button type="button" onClick={() => stamp('exp', 86_400)}>
            exp = in 1 day
          </button>
          <span className="spacer" />
          <button type="button" onClick={() => void mint()}>
            Mint into Authorization
          </button>
        </div>
      </fieldset>
    </div>
  );
}
