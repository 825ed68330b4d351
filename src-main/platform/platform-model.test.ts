import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type Call, type TestPlatform } from './testing/platform-harness.ts';

/**
 * Property tests: random sequences of operations over HTTP, checked step by step against a
 * model small enough to be obviously right.
 */
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

// ---- KV: a map of key to {value, version}; versions only ever grow. ----

interface KvModel {
  entries: Map<string, { value: string; version: number }>;
  lastVersion: number;
}
interface KvReal {
  call: Call;
  ns: string;
}
type VersionChoice = 'zero' | 'current' | 'wrong';

const kvPath = (r: KvReal, key: string) => `/v1/kv/${r.ns}/entry?key=${encodeURIComponent(key)}`;
const chosenVersion = (m: KvModel, key: string, choice: VersionChoice): number => {
  const current = m.entries.get(key)?.version;
  if (choice === 'zero') return 0;
  if (choice === 'current') return current ?? 0;
  return (current ?? 0) + 7;
};

class KvPut implements fc.AsyncCommand<KvModel, KvReal> {
  constructor(readonly key: string, readonly value: string, readonly choice: VersionChoice) {}
  check = () => true;
  async run(m: KvModel, r: KvReal): Promise<void> {
    const version = chosenVersion(m, this.key, this.choice);
    const present = m.entries.get(this.key);
    const res = await r.call('PUT', kvPath(r, this.key), { body: this.value, headers: { 'x-object-version': String(version) } });
    const allowed = version === 0 ? !present : present?.version === version;
    if (!allowed) {
      expect(res.status).toBe(409);
      return;
    }
    expect(res.status).toBe(present ? 200 : 201);
    const issued = Number(res.headers.get('x-object-version'));
    expect(issued).toBeGreaterThan(m.lastVersion);
    m.lastVersion = issued;
    m.entries.set(this.key, { value: this.value, version: issued });
  }
  toString = () => `put(${this.key}, ${JSON.stringify(this.value)}, ${this.choice})`;
}

class KvGet implements fc.AsyncCommand<KvModel, KvReal> {
  constructor(readonly key: string) {}
  check = () => true;
  async run(m: KvModel, r: KvReal): Promise<void> {
    const res = await r.call('GET', kvPath(r, this.key));
    const present = m.entries.get(this.key);
    if (!present) {
      expect(res.status).toBe(404);
      return;
    }
    expect(res.status).toBe(200);
    expect(res.text).toBe(present.value);
    expect(Number(res.headers.get('x-object-version'))).toBe(present.version);
  }
  toString = () => `get(${this.key})`;
}

class KvDelete implements fc.AsyncCommand<KvModel, KvReal> {
  constructor(readonly key: string, readonly choice: VersionChoice) {}
  check = () => true;
  async run(m: KvModel, r: KvReal): Promise<void> {
    const version = chosenVersion(m, this.key, this.choice);
    const res = await r.call('DELETE', kvPath(r, this.key), { headers: { 'x-object-version': String(version) } });
    const present = m.entries.get(this.key);
    if (!present) expect(res.status).toBe(404);
    else if (version !== 0 && version !== present.version) expect(res.status).toBe(409);
    else {
      expect(res.status).toBe(204);
      m.entries.delete(this.key);
    }
  }
  toString = () => `delete(${this.key}, ${this.choice})`;
}

const keys = fc.constantFrom('a', 'b', 'c/d', 'c/d/e');
const versionChoice = fc.constantFrom<VersionChoice>('zero', 'current', 'wrong');
const kvCommands = [
  fc.tuple(keys, fc.string({ maxLength: 20 }), versionChoice).map(([k, v, c]) => new KvPut(k, v, c)),
  keys.map((k) => new KvGet(k)),
  fc.tuple(keys, versionChoice).map(([k, c]) => new KvDelete(k, c)),
];

// ---- Queue: published messages are ready or in flight; a receive takes only ready ones. ----

interface QueueModel {
  ready: Set<number>;
  inFlight: Map<string, number>;
  settledHandles: string[];
  deliveries: Map<number, number>;
  published: number;
}
interface QueueReal {
  call: Call;
  subject: string;
}

class Publish implements fc.AsyncCommand<QueueModel, QueueReal> {
  check = () => true;
  async run(m: QueueModel, r: QueueReal): Promise<void> {
    const body = m.published++;
    const res = await r.call('POST', `/v1/queues/${r.subject}/publish`, { json: { body } });
    expect(res.status).toBe(202);
    m.ready.add(body);
  }
  toString = () => 'publish';
}

class Receive implements fc.AsyncCommand<QueueModel, QueueReal> {
  constructor(readonly max: number) {}
  check = () => true;
  async run(m: QueueModel, r: QueueReal): Promise<void> {
    const res = await r.call('POST', `/v1/queues/${r.subject}/receive`, { json: { consumerGroup: 'g', waitSeconds: 0, maxMessages: this.max } });
    if (m.ready.size === 0) {
      expect(res.status).toBe(204);
      return;
    }
    expect(res.status).toBe(200);
    const messages = (res.json as { messages: Array<{ body: number; handle: string; deliveryCount: number }> }).messages;
    expect(messages.length).toBe(Math.min(this.max, m.ready.size));
    for (const msg of messages) {
      expect(m.ready.has(msg.body)).toBe(true);
      m.ready.delete(msg.body);
      const count = (m.deliveries.get(msg.body) ?? 0) + 1;
      expect(msg.deliveryCount).toBe(count);
      m.deliveries.set(msg.body, count);
      m.inFlight.set(msg.handle, msg.body);
    }
  }
  toString = () => `receive(${this.max})`;
}

class Settle implements fc.AsyncCommand<QueueModel, QueueReal> {
  constructor(
    readonly verb: 'ack' | 'nack',
    readonly pick: number,
    readonly stale: boolean,
  ) {}
  check = (m: Readonly<QueueModel>) => (this.stale ? m.settledHandles.length > 0 : m.inFlight.size > 0);
  async run(m: QueueModel, r: QueueReal): Promise<void> {
    const handles = this.stale ? m.settledHandles : [...m.inFlight.keys()];
    const handle = handles[this.pick % handles.length];
    const res = await r.call('POST', `/v1/queues/${r.subject}/${this.verb}`, { json: { handles: [handle], delaySeconds: 0 } });
    expect(res.status).toBe(204);
    if (this.stale) return; // a settled handle changes nothing
    const body = m.inFlight.get(handle)!;
    m.inFlight.delete(handle);
    m.settledHandles.push(handle);
    if (this.verb === 'nack') m.ready.add(body);
  }
  toString = () => `${this.verb}(${this.pick}${this.stale ? ', stale' : ''})`;
}

const queueCommands = [
  fc.constant(new Publish()),
  fc.integer({ min: 1, max: 5 }).map((n) => new Receive(n)),
  fc.tuple(fc.constantFrom<'ack' | 'nack'>('ack', 'nack'), fc.nat(), fc.boolean()).map(([verb, pick, stale]) => new Settle(verb, pick, stale)),
];

let runs = 0;
describe('model-based properties', () => {
  it('KV follows the version rules of a simple map model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(kvCommands, { maxCommands: 30 }), async (commands) => {
        const setup = () => ({ model: { entries: new Map(), lastVersion: 0 }, real: { call: platform.call, ns: `model-${++runs}` } });
        await fc.asyncModelRun(setup, commands);
      }),
      { numRuns: 60 },
    );
  });

  it('a queue loses, duplicates or leaks no message against a ready/in-flight model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(queueCommands, { maxCommands: 30 }), async (commands) => {
        const setup = () => ({
          model: { ready: new Set<number>(), inFlight: new Map(), settledHandles: [], deliveries: new Map(), published: 0 },
          real: { call: platform.call, subject: `model-${++runs}` },
        });
        await fc.asyncModelRun(setup, commands);
      }),
      { numRuns: 60 },
    );
  });
});
