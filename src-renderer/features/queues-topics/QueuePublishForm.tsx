import { useState } from 'react';
import { platformQueries } from '../../api/platform-queries.ts';
import { TestMessageForm } from './TestMessageForm.tsx';

/** Publishes a test message (or many copies) to a subject, to every consumer group or to one. */
export function QueuePublishForm({ subject: initialSubject, groups, onPublished }: { subject: string; groups: string[]; onPublished: () => void }) {
  const [subject, setSubject] = useState(initialSubject);
  const [group, setGroup] = useState('');
  const [copies, setCopies] = useState('1');

  const send = async (message: { body: unknown; headers: Record<string, string> }): Promise<string> => {
    const r = await platformQueries.publishQueueMessage({ subject, ...message, consumerGroup: group || undefined, count: Number(copies) || 1 });
    onPublished();
    const n = r.messageIds.length;
    const to = r.groups.length > 0 ? r.groups.join(', ') : 'the first consumer group to receive';
    return `Published ${n} message${n === 1 ? '' : 's'} to ${to} · correlation id ${r.correlationId}`;
  };

  return (
    <TestMessageForm label="Publish a test message" send={send}>
      <label>
        Subject
        <input value={subject} onChange={(e) => setSubject(e.currentTarget.value)} required />
      </label>
      <label>
        Consumer group
        <select value={group} onChange={(e) => setGroup(e.currentTarget.value)}>
          <option value="">every group</option>
          {groups.filter((g) => g !== '').map((g) => (
            <option key={g} value={g}>
              only {g}
            </option>
          ))}
        </select>
      </label>
      <label>
        Copies
        <input type="number" min={1} max={1000} value={copies} onChange={(e) => setCopies(e.currentTarget.value)} />
      </label>
    </TestMessageForm>
  );
}
