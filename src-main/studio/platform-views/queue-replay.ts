import type { QueueGroupStats } from '../../../shared/platform-views.ts';
import type { EventHistory, SnapshotHistory } from './event-history.ts';
import type { QueueRecord } from './queue-traffic.ts';

export const groupKey = (subject: string, group: string): string => `${subject}\0${group}`;
const key = groupKey;

/**
 * Counters as they were at `at`: the last snapshot before it, with the events since replayed.
 * Stored counts follow the events too; only a nack delay or ack deadline running out between
 * the snapshot and `at` (at most a tick) is not seen.
 */
export function countersAt(snapshots: SnapshotHistory<QueueGroupStats[]>, history: EventHistory<QueueRecord>, at: number): QueueGroupStats[] {
  const snapshot = snapshots.at(at);
  if (!snapshot) return [];
  const rows = new Map(snapshot.value.map((r) => [key(r.subject, r.group), { ...r }]));
  const row = (subject: string, group: string): QueueGroupStats => {
    const k = key(subject, group);
    let r = rows.get(k);
    if (!r) rows.set(k, (r = { subject, group, published: 0, delivered: 0, redelivered: 0, acked: 0, nacked: 0, waiting: 0, inFlight: 0, delayed: 0 }));
    return r;
  };
  for (const e of history.between(snapshot.seq, at)) replay(e, row, rows);
  return [...rows.values()].sort((a, b) => a.subject.localeCompare(b.subject) || a.group.localeCompare(b.group));
}

/** Applies one event to counters being rebuilt for an earlier moment. */
function replay(e: QueueRecord, row: (subject: string, group: string) => QueueGroupStats, rows: Map<string, QueueGroupStats>): void {
  const down = (n: number): number => Math.max(0, n - 1);
  if (e.action === 'publish' || e.action === 'request') {
    for (const g of e.groups && e.groups.length > 0 ? e.groups : ['']) {
      const r = row(e.subject, g);
      r.published++;
      r.waiting++;
    }
    return;
  }
  if (e.action === 'purge') {
    for (const r of rows.values()) if (r.subject === e.subject && (e.group === undefined || r.group === e.group)) r.waiting = r.inFlight = r.delayed = 0;
    return;
  }
  if (e.group === undefined) return;
  const unclaimed = rows.get(key(e.subject, ''));
  if (unclaimed && !rows.has(key(e.subject, e.group))) {
    // The subject's first consumer group takes over what was published before it existed.
    rows.delete(key(e.subject, ''));
    rows.set(key(e.subject, e.group), { ...unclaimed, group: e.group });
  }
  const r = row(e.subject, e.group);
  switch (e.action) {
    case 'deliver':
      r.delivered++;
      r.waiting = down(r.waiting);
      r.inFlight++;
      return;
    case 'redeliver':
      r.redelivered++;
      if (e.redelivery === 'after ack deadline') return;
      if (e.redelivery === 'after nack delay' && r.delayed > 0) r.delayed--;
      else r.waiting = down(r.waiting);
      r.inFlight++;
      return;
    case 'ack':
      r.acked++;
      r.inFlight = down(r.inFlight);
      return;
    case 'nack':
      r.nacked++;
      r.inFlight = down(r.inFlight);
      if ((e.delaySeconds ?? 0) > 0) r.delayed++;
      else r.waiting++;
  }
}
