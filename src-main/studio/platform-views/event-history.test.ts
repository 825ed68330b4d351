import { describe, expect, it } from 'vitest';
import { EventHistory, SnapshotHistory } from './event-history.ts';

interface E {
  seq: number;
  at: number;
  subject: string;
}

describe('event history', () => {
  it('keeps events for the configured minutes and no more than the cap', () => {
    const limits = { minutes: 1, maxEvents: 3 };
    const h = new EventHistory<E>(limits);
    for (let i = 0; i < 5; i++) h.push({ at: 1_000 + i, subject: 'a' });
    expect(h.size).toBe(3);
    expect(h.newest(10, undefined, () => true).map((e) => e.seq)).toEqual([3, 4, 5]);
    h.prune(1_005 + 60_000);
    expect(h.size).toBe(0);
  });

  it('answers the newest matching events up to a moment, oldest first', () => {
    const h = new EventHistory<E>({ minutes: 10, maxEvents: 100 });
    for (let i = 0; i < 10; i++) h.push({ at: i * 100, subject: i % 2 ? 'odd' : 'even' });
    expect(h.newest(2, 550, (e) => e.subject === 'odd').map((e) => e.at)).toEqual([300, 500]);
  });

  it('says how far back it reaches once the cap cut it short', () => {
    const h = new EventHistory<E>({ minutes: 10, maxEvents: 2 });
    for (let i = 0; i < 3; i++) h.push({ at: 500_000 + i * 1_000, subject: 'a' });
    expect(h.window(510_000)).toEqual({ minutes: 10, from: 501_000, to: 510_000 });
  });

  it('gives the events after a numbered one up to a moment', () => {
    const h = new EventHistory<E>({ minutes: 10, maxEvents: 100 });
    for (let i = 0; i < 5; i++) h.push({ at: i * 10, subject: 'a' });
    expect(h.between(2, 30).map((e) => e.seq)).toEqual([3, 4]);
  });

  it('survives compaction after many thousand events', () => {
    const h = new EventHistory<E>({ minutes: 10, maxEvents: 1_000 });
    for (let i = 0; i < 20_000; i++) h.push({ at: i, subject: 'a' });
    expect(h.size).toBe(1_000);
    expect(h.newest(1, undefined, () => true)[0].seq).toBe(20_000);
  });
});

describe('snapshot history', () => {
  it('returns the state as of the last snapshot at or before a moment, skipping unchanged ones', () => {
    const s = new SnapshotHistory<number>({ minutes: 10, maxEvents: 100 });
    s.record(1_000, 1, 1, '1');
    s.record(2_000, 2, 1, '1');
    s.record(3_000, 3, 2, '2');
    expect(s.at(500)).toBeUndefined();
    expect(s.at(2_500)).toEqual({ at: 1_000, seq: 1, value: 1 });
    expect(s.at(3_000)?.value).toBe(2);
  });

  it('keeps the state at the start of the window', () => {
    const s = new SnapshotHistory<number>({ minutes: 1, maxEvents: 100 });
    s.record(0, 0, 1, '1');
    s.record(120_000, 5, 2, '2');
    expect(s.at(61_000)?.value).toBe(1);
  });
});
