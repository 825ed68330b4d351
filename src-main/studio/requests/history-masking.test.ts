import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry, SendRequestInput } from '../../../shared/request-types.ts';
import { STUDIO_DB_FILE } from '../state/studio-db.ts';
import { SEALED_ORIGINALS_FILE } from './sealed-request-originals.ts';
import { startStudioHarness, type StudioHarness } from '../testing/studio-harness.ts';

const API_KEY = 'sk-live-7d41c0ffee';
const BEARER = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiaWxsaW5nIn0.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
const HANDSHAKE_TOKEN = 'handshake-from-composer-91';

// The route answers whether what reached it was the real key and token, and echoes the body.
const VAULT = `
env:
  API_KEY: {default: "${API_KEY}", secret: true}
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  check:
    source: {type: http, path: /check, methods: [POST], headers: [Authorization, X-Api-Key]}
    steps:
      - set:
          body: '{"keyOk": vars["X-Api-Key"] == "${API_KEY}", "bearerOk": vars.Authorization == "Bearer ${BEARER}", "echo": body}'
`;

const NOTES = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  notes: {type: notes, token: "integration-token-1"}
flows:
  notes-in:
    source: {type: http, connector: web, path: /webhooks/notes, methods: [POST], headers: [X-Notes-Signature], rawBody: true}
    steps:
      - notes-verify-request: {connector: notes}
      - set: {body: '{"accepted": true}'}
`;

let h: StudioHarness;
const target = { integration: 'vault', flow: 'check', route: '/check' };
const routeUrl = (integration: string) => h.states.filter((s) => s.integration === integration && s.status === 'running').at(-1)!.routes[0].url;

beforeAll(async () => {
  h = await startStudioHarness({ vault: { 'vault.yaml': VAULT }, bootstrap: { 'notes.yaml': NOTES } });
  for (const id of ['vault', 'bootstrap']) expect((await h.backend.api.startIntegration(id)).status).toBe('running');
}, 30_000);
afterAll(() => h?.close());

/** The rows of a studio.db table, as text. */
function rowsOf(sql: string): string {
  const db = new Database(join(h.workspaceDir, '..', 'data', STUDIO_DB_FILE), { readonly: true });
  try {
    return JSON.stringify(db.prepare(sql).all());
  } finally {
    db.close();
  }
}

describe('request history from the composer', () => {
  let first: HistoryEntry;

  it('is masked like a capture: the secret values, a bearer token, a signature and a handshake token', async () => {
    const api = h.backend.api;
    first = await api.sendRequest({
      id: 'with-secrets',
      method: 'POST',
      url: routeUrl('vault'),
      headers: [['Authorization', `Bearer ${BEARER}`], ['X-Api-Key', API_KEY], ['Accept', 'application/json']],
      body: { kind: 'json', text: JSON.stringify({ key: API_KEY, n: 1 }) },
      target,
    });
    // What reached the route was the real thing.
    expect(JSON.parse(first.response.body.text!)).toMatchObject({ keyOk: true, bearerOk: true });
    expect(first.request.headers).toEqual([['Authorization', 'Bearer [redacted]'], ['X-Api-Key', '[redacted]'], ['Accept', 'application/json']]);
    expect(JSON.parse((first.request.body as { text: string }).text)).toEqual({ key: '[redacted]', n: 1 });
    expect(JSON.parse(first.response.body.text!).echo).toEqual({ key: '[redacted]', n: 1 });
    for (const shown of [first, await api.requestHistory()]) {
      expect(JSON.stringify(shown)).not.toContain(API_KEY);
      expect(JSON.stringify(shown)).not.toContain(BEARER);
    }

    // A handshake sent from the composer: its token is masked although no secret declares it.
    const handshake = await api.sendRequest({
      id: 'handshake',
      method: 'POST',
      url: routeUrl('bootstrap'),
      headers: [],
      body: { kind: 'json', text: JSON.stringify({ verification_token: HANDSHAKE_TOKEN }) },
      target: { integration: 'bootstrap', flow: 'notes-in', route: '/webhooks/notes' },
    });
    expect(handshake.response.status).toBe(200);
    // And a request the studio signed with that token: the signature is masked too.
    const signed = await api.sendRequest({
      id: 'signed',
      method: 'POST',
      url: routeUrl('bootstrap'),
      headers: [],
      body: { kind: 'json', text: '{"type": "page.created", "entityId": "p-1"}' },
      target: { integration: 'bootstrap', flow: 'notes-in', route: '/webhooks/notes' },
      sign: true,
    });
    expect(signed.response.status).toBe(200);
    expect(signed.signature).toEqual({ header: 'X-Notes-Signature', value: '[redacted]' });
    const history = JSON.stringify(await api.requestHistory());
    expect(history).not.toContain(HANDSHAKE_TOKEN);
    expect(history).not.toMatch(/sha256=[0-9a-f]{64}/);

    // Nothing of it reaches studio.db's history in clear, and the secret value nothing in the data folder.
    // Nothing of it reaches studio.db's history in clear; the sealed originals hold it encrypted.
    h.backend.inspection!.history.flush();
    const rows = rowsOf('SELECT entry FROM request_history');
    expect(rows).toContain('with-secrets');
    for (const value of [API_KEY, BEARER, HANDSHAKE_TOKEN]) expect(rows).not.toContain(value);
    const sealed = readFileSync(join(h.workspaceDir, '..', 'data', SEALED_ORIGINALS_FILE)).toString('latin1');
    for (const value of [API_KEY, BEARER, HANDSHAKE_TOKEN]) expect(sealed).not.toContain(value);
  });

  it('masks an Authorization header whose name came with spaces around it, which goes out trimmed', async () => {
    const spaced = await h.backend.api.sendRequest({ id: 'spaced-name', method: 'POST', url: routeUrl('vault'), headers: [[' Authorization ', `Bearer ${BEARER}`], ['X-Api-Key', API_KEY]], body: { kind: 'none' }, target });
    expect(JSON.parse(spaced.response.body.text!)).toMatchObject({ bearerOk: true });
    expect(spaced.request.headers).toEqual([['Authorization', 'Bearer [redacted]'], ['X-Api-Key', '[redacted]']]);
    expect(JSON.stringify(await h.backend.api.requestHistory())).not.toContain(BEARER);
  });

  it('re-sends what was sent when opened from the history, and what the person changed as changed', async () => {
    const api = h.backend.api;
    // The composer holds the entry as the history shows it, and says where it came from.
    const again: SendRequestInput = { ...first.request, id: 'again', url: routeUrl('vault'), fromHistory: first.id };
    const resent = await api.sendRequest(again);
    expect(JSON.parse(resent.response.body.text!)).toMatchObject({ keyOk: true, bearerOk: true });
    expect(JSON.stringify(resent)).not.toContain(API_KEY);

    // A header typed anew goes out as typed.
    const edited = await api.sendRequest({ ...again, id: 'edited', headers: [['Authorization', 'Bearer other'], ['X-Api-Key', '[redacted]']] });
    expect(JSON.parse(edited.response.body.text!)).toMatchObject({ keyOk: true, bearerOk: false });

    // Without the history entry to come from, the masked values are just text.
    const plain = await api.sendRequest({ ...first.request, id: 'plain', url: routeUrl('vault') });
    expect(JSON.parse(plain.response.body.text!)).toMatchObject({ keyOk: false, bearerOk: false });
  });

  it('still re-sends after a restart, from the sealed originals, and forgets them when the history is cleared', async () => {
    h = await h.restart();
    expect((await h.backend.api.startIntegration('vault')).status).toBe('running');
    const resent = await h.backend.api.sendRequest({ ...first.request, id: 'after-restart', url: routeUrl('vault'), fromHistory: first.id });
    expect(JSON.parse(resent.response.body.text!)).toMatchObject({ keyOk: true, bearerOk: true });
    await h.backend.api.clearRequestHistory();
    const cleared = await h.backend.api.sendRequest({ ...first.request, id: 'after-clear', url: routeUrl('vault'), fromHistory: first.id });
    expect(JSON.parse(cleared.response.body.text!)).toMatchObject({ keyOk: false, bearerOk: false });
  });
});
