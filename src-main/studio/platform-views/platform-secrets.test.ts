import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudioHarness, type StudioHarness } from '../testing/studio-harness.ts';

const VALUE = 'pk-live-4f0b9e7a1c2d';

// A flow that reads a platform secret with secret("name"): the value lives in the KV namespace
// user_secrets, not among the cluster secrets that deployments bind.
const SHOP = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  pay:
    source: {type: http, path: /pay, methods: [POST]}
    steps:
      - log: {message: '"paying with " + secret("payments-key")'}
      - set: {body: '{"keyLength": size(secret("payments-key"))}'}
`;

let h: StudioHarness;
let pay: string;
beforeAll(async () => {
  h = await startStudioHarness({ shop: { 'shop.yaml': SHOP } });
  const state = await h.backend.api.startIntegration('shop');
  expect(state.status, state.reason).toBe('running');
  pay = state.routes.find((r) => r.flow === 'pay')!.url;
}, 30_000);
afterAll(() => h?.close());

describe('platform secrets that flows read with secret("name")', () => {
  it('are set from the studio, write-only: the flow reads the value and no answer or log carries it', async () => {
    const { api } = h.backend;
    expect((await fetch(pay, { method: 'POST', body: '{}' })).status).toBe(500);

    const set = await api.setPlatformSecret('payments-key', VALUE);
    expect(set).toEqual({ version: expect.any(Number) });
    const res = await fetch(pay, { method: 'POST', body: '{}' });
    expect(await res.json()).toEqual({ keyLength: VALUE.length });

    // Overwritten, a flow reads it anew (within a minute, or at once when restarted); still never answered back.
    await api.setPlatformSecret('payments-key', `${VALUE}-2`);
    const restarted = await api.restartIntegration('shop');
    const payAgain = restarted.routes.find((r) => r.flow === 'pay')!.url;
    expect(await (await fetch(payAgain, { method: 'POST', body: '{}' })).json()).toEqual({ keyLength: VALUE.length + 2 });

    const answers = [
      set,
      await api.kvView({ namespace: 'user_secrets' }),
      await api.kvEntry('user_secrets', 'payments-key'),
      await api.queryLogs({ limit: 1000 }),
    ];
    expect((answers[1] as { keys: Array<{ key: string }> }).keys.map((k) => k.key)).toEqual(['payments-key']);
    expect(answers[2]).toMatchObject({ value: { kind: 'secret' } });
    expect(JSON.stringify(answers)).not.toContain(VALUE);

    await expect(api.setPlatformSecret('payments-key', '')).rejects.toThrow(/needs a value/);
  });
});
