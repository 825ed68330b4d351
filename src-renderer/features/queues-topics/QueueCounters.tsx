import type { QueueGroupStats } from '../../../shared/platform-views.ts';

const COUNTERS: Array<[keyof QueueGroupStats, string, string]> = [
  ['waiting', 'Waiting', 'Visible now: the next receive takes them'],
  ['inFlight', 'In flight', 'Delivered, not yet acked or nacked'],
  ['delayed', 'Delayed', 'Nacked, waiting out their delay'],
  ['published', 'Published', 'Since the studio started'],
  ['delivered', 'Delivered', 'First deliveries since the studio started'],
  ['redelivered', 'Redelivered', 'Deliveries after a nack delay or a missed ack deadline'],
  ['acked', 'Acked', 'Settled as done'],
  ['nacked', 'Nacked', 'Handed back by a failed run'],
];

/** The counters of one consumer group, or of every group of a subject added up. */
export function QueueCounters({ rows, label }: { rows: QueueGroupStats[]; label: string }) {
  const sum = (k: keyof QueueGroupStats): number => rows.reduce((n, r) => n + (r[k] as number), 0);
  return (
    <dl className="pv-counters" aria-label={label}>
      {COUNTERS.map(([k, name, help]) => (
        <div key={k} className={`pv-counter counter-${k}`} title={help}>
          <dt>{name}</dt>
          <dd data-counter={k}>{sum(k)}</dd>
        </div>
      ))}
    </dl>
  );
}
