import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { FlowResult } from '../../../core/engine/chain.ts';
import type { Runtime } from '../../../core/runtime.ts';
import { startYaml } from '../../../testing/load-yaml.ts';
import { webhookEvent } from '../testing/notes-fixtures.ts';

const CONFIGURED = 'secret_configured_verification_token';
const HANDSHAKE = 'secret_handshake_verification_token';

const definition = (verificationToken?: string) => `connectors:
  notes:
    type: notes
    token: ntn_integration_token
${verificationToken ? `    verificationToken: ${verificationToken}\n` : ''}flows:
  webhook:
    steps:
      - notes-verify-request: {connector: notes}
`;

const sign = (payload: string, token: string) => `sha256=${createHmac('sha256', token).update(payload).digest('hex')}`;

/** Delivers a request the way an http source with `rawBody: true` hands it to the flow. */
function deliver(runtime: Runtime, payload: string, signature?: string) {
  const vars: Record<string, unknown> = signature === undefined ? {} : { 'X-Notes-Signature': signature };
  return runtime.run('webhook', { contentType: 'application/json', rawData: new TextEncoder().encode(payload) }, vars);
}

const handshake = (token = HANDSHAKE) => JSON.stringify({ verification_token: token });
const event = JSON.stringify(webhookEvent('page.content_updated'));

/** What the block did: passed the message on, rejected the request with its own 401/400, or failed the flow. */
function verdict(r: FlowResult): 'passed' | 'rejected' | 'failed' {
  if (r.outcome === 'failed') return 'failed';
  return r.halted ? 'rejected' : 'passed';
}

/** The reason a rejection answers with, `{error: reason}`. */
const reasonOf = (r: FlowResult): string => (r.message.body as { error: string }).error;

const running: Runtime[] = [];
async function start(verificationToken?: string) {
  const started = await startYaml(definition(verificationToken));
  running.push(started.runtime);
  return started;
}
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

describe('notes-verify-request while no token is known', () => {
  it('captures the handshake token, surfaces it in vars.notesVerification, logs it once, and verifies later events with it at once', async () => {
    const { runtime, logs } = await start();
    const shake = await deliver(runtime, handshake());
    expect(verdict(shake)).toBe('passed');
    expect(shake.message.vars.notesVerification).toMatchObject({ verificationToken: HANDSHAKE });
    expect(shake.message.body).toEqual({ verification_token: HANDSHAKE });
    expect(runtime.describe().connectors[0].details).toMatchObject({ verification: 'captured' });

    const verified = await deliver(runtime, event, sign(event, HANDSHAKE));
    expect(verdict(verified)).toBe('passed');
    expect(verified.message.body).toEqual(JSON.parse(event));

    const captureLogs = logs.filter((l) => JSON.stringify(l).includes(HANDSHAKE));
    expect(captureLogs).toHaveLength(1);
    expect(captureLogs[0]).toMatchObject({ level: 'warn', verificationToken: HANDSHAKE });
    expect(JSON.stringify(logs)).not.toContain('ntn_integration_token');
  });

  it('rejects anything but a bare handshake, including an event carrying a verification_token, and stays open for the handshake', async () => {
    const { runtime } = await start();
    const sneaky = JSON.stringify({ ...webhookEvent('page.created'), verification_token: 'attacker_token' });
    for (const payload of [sneaky, event, JSON.stringify({ verification_token: '' }), JSON.stringify({ verification_token: 42 }), 'not json']) {
      const result = await deliver(runtime, payload);
      expect(result.halted).toBe(true);
      expect(result.message.vars.httpStatus).toBe(401);
      expect(result.message.body).toEqual({ error: expect.stringMatching(/^notes webhook rejected: no verification token is known yet/) });
    }
    // A signed handshake is not the handshake either: there is nothing to check the signature against.
    expect((await deliver(runtime, handshake(), sign(handshake(), HANDSHAKE))).message.vars.httpStatus).toBe(401);
    expect(runtime.describe().connectors[0].details).toMatchObject({ verification: 'awaiting handshake' });
    expect(verdict(await deliver(runtime, handshake()))).toBe('passed');
  });

  it('bootstraps when verificationToken is bound to an optional variable left unset', async () => {
    const { runtime } = await startYaml(`env:
  NOTES_VERIFICATION_TOKEN: {secret: true}
connectors:
  notes: {type: notes, token: t, verificationToken: '\${NOTES_VERIFICATION_TOKEN}'}
flows:
  webhook:
    steps: [{notes-verify-request: {connector: notes}}]
`);
    running.push(runtime);
    expect(verdict(await deliver(runtime, handshake()))).toBe('passed');
    expect(verdict(await deliver(runtime, event, sign(event, HANDSHAKE)))).toBe('passed');
  });

  it('lets exactly one of two racing handshakes set the token', async () => {
    const { runtime } = await start();
    const [first, second] = await Promise.all([deliver(runtime, handshake('token_one')), deliver(runtime, handshake('token_two'))]);
    expect([verdict(first), verdict(second)].sort()).toEqual(['passed', 'rejected']);
    const winner = verdict(first) === 'passed' ? 'token_one' : 'token_two';
    expect(verdict(await deliver(runtime, event, sign(event, winner)))).toBe('passed');
  });
});

describe('notes-verify-request once a token is known', () => {
  it('refuses an unsigned handshake, so nobody can push a new token into a running service', async () => {
    const { runtime } = await start(CONFIGURED);
    const result = await deliver(runtime, handshake('attacker_token'));
    expect(verdict(result)).toBe('rejected');
    expect(reasonOf(result)).toMatch(/a new handshake is refused; to rotate it, unset verificationToken and restart/);
    expect(verdict(await deliver(runtime, event, sign(event, 'attacker_token')))).toBe('rejected');
    expect(verdict(await deliver(runtime, event, sign(event, CONFIGURED)))).toBe('passed');
  });

  it('refuses a captured token being replaced by a second handshake', async () => {
    const { runtime } = await start();
    await deliver(runtime, handshake());
    expect(verdict(await deliver(runtime, handshake('attacker_token')))).toBe('rejected');
    expect(verdict(await deliver(runtime, event, sign(event, HANDSHAKE)))).toBe('passed');
  });

  it('continues with a valid signature and parses the raw body back into JSON', async () => {
    const { runtime } = await start(CONFIGURED);
    const result = await deliver(runtime, event, sign(event, CONFIGURED));
    expect(verdict(result)).toBe('passed');
    expect(result.message.body).toEqual(JSON.parse(event));
  });

  it('rejects the request on an invalid, malformed or missing signature', async () => {
    const { runtime } = await start(CONFIGURED);
    const good = sign(event, CONFIGURED);
    const cases: Array<[string | undefined, RegExp]> = [
      [sign(event, 'another_token'), /X-Notes-Signature does not match the request body/],
      [sign(event + ' ', CONFIGURED), /does not match/],
      [good.slice(0, -2), /does not match/],
      ['sha256=not-hex', /does not match/],
      [good.replace('sha256=', ''), /does not match/],
      [undefined, /unsigned request \(no X-Notes-Signature\)/],
      ['', /unsigned request/],
    ];
    for (const [signature, reason] of cases) {
      const result = await deliver(runtime, event, signature);
      expect(verdict(result)).toBe('rejected');
      expect(reasonOf(result)).toMatch(reason);
      expect(reasonOf(result)).not.toContain(CONFIGURED);
    }
  });

  it('verifies the exact string of rawBodyVar and leaves the parsed body as the source made it', async () => {
    const { runtime } = await startYaml(`connectors:
  notes: {type: notes, token: t, verificationToken: ${CONFIGURED}}
flows:
  webhook:
    steps:
      - notes-verify-request: {connector: notes, rawBodyVar: exactBody, signatureHeader: X-Sig}
`);
    running.push(runtime);
    const spaced = JSON.stringify(webhookEvent('page.created'), null, 2);
    const ok = await runtime.run('webhook', JSON.parse(spaced), { exactBody: spaced, 'x-sig': sign(spaced, CONFIGURED) });
    expect(verdict(ok)).toBe('passed');
    expect(ok.message.body).toEqual(JSON.parse(spaced));
    // The same JSON re-serialised is not the bytes that were signed.
    const compact = await runtime.run('webhook', JSON.parse(spaced), { exactBody: JSON.stringify(JSON.parse(spaced)), 'X-Sig': sign(spaced, CONFIGURED) });
    expect(verdict(compact)).toBe('rejected');
  });

  it('says how to expose the exact bytes when neither a raw body nor the rawBody variable is there', async () => {
    const { runtime } = await start(CONFIGURED);
    const result = await runtime.run('webhook', JSON.parse(event), { 'X-Notes-Signature': sign(event, CONFIGURED) });
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toMatch(/needs the exact request bytes: give the http source rawBody: true, or rawBodyVar: rawBody/);
  });

  it('rejects a correctly signed body that is not JSON with 400', async () => {
    const { runtime } = await start(CONFIGURED);
    const result = await deliver(runtime, 'not json', sign('not json', CONFIGURED));
    expect(result.message.vars.httpStatus).toBe(400);
    expect(reasonOf(result)).toBe('notes webhook rejected: the signed body is not JSON');
  });
});

describe('notes-verify-request across a restart', () => {
  it('forgets a captured token: the next runtime waits for a new handshake', async () => {
    const first = await start();
    await deliver(first.runtime, handshake());
    expect(verdict(await deliver(first.runtime, event, sign(event, HANDSHAKE)))).toBe('passed');
    await first.runtime.stop();

    const second = await start();
    expect(verdict(await deliver(second.runtime, event, sign(event, HANDSHAKE)))).toBe('rejected');
    expect(verdict(await deliver(second.runtime, handshake('fresh_token')))).toBe('passed');
    expect(verdict(await deliver(second.runtime, event, sign(event, 'fresh_token')))).toBe('passed');
  });

  it('keeps a configured token: events verify straight after the restart and handshakes stay refused', async () => {
    const first = await start(CONFIGURED);
    expect(verdict(await deliver(first.runtime, event, sign(event, CONFIGURED)))).toBe('passed');
    await first.runtime.stop();

    const second = await start(CONFIGURED);
    expect(verdict(await deliver(second.runtime, event, sign(event, CONFIGURED)))).toBe('passed');
    expect(verdict(await deliver(second.runtime, handshake()))).toBe('rejected');
  });
});
