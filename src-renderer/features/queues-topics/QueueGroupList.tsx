import type { QueueGroupStats } from '../../../shared/platform-views.ts';

/** Every subject and consumer group with its main counters; a row opens its timeline. */
export function QueueGroupList({
  groups,
  subject,
  group,
  onSelect,
}: {
  groups: QueueGroupStats[];
  subject: string | undefined;
  group: string | undefined;
  onSelect: (subject: string, group: string | undefined) => void;
}) {
  if (groups.length === 0) return null;
  return (
    <div className="pv-list">
      <table className="pv-table" aria-label="Queue subjects and consumer groups">
        <thead>
          <tr>
            <th>Subject · group</th>
            <th title="Waiting to be received">Wait</th>
            <th title="Delivered, not yet settled">Flight</th>
            <th>Acked</th>
            <th>Nacked</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => {
            const selected = g.subject === subject && (group === undefined || g.group === group);
            return (
              <tr key={`${g.subject}\0${g.group}`} aria-selected={selected} className={selected ? 'selected' : undefined}>
                <td>
                  <button type="button" className="link" onClick={() => onSelect(g.subject, g.group)}>
                    {groupLabel(g.subject, g.group)}
                  </button>
                </td>
                <td>{g.waiting + g.delayed}</td>
                <td>{g.inFlight}</td>
                <td>{g.acked}</td>
                <td className={g.nacked > 0 ? 'warning' : undefined}>{g.nacked}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function groupLabel(subject: string, group: string): string {
  return `${subject} · ${group === '' ? '(no group yet)' : group}`;
}
