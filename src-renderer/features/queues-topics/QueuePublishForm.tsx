import { useState } from 'react';
import { platformQueries } from '../../api/platform-queries.ts';
import { parseMessageInput } from './message-input.ts';

/** Publishes a test message (or many copies) to a subject, to every consumer group or to one. */
export function QueuePublishForm({ subject: initialSubject, groups, onPublished }: { subject: string; groups: string[]; onPublished: () => void }) {
  const [subject, setSubject] = useState(initialSubject);
  const [group, setGroup] = useState('');
  const [body, setBody] = useState('{\n  "test": true\n}');
  const [headers, setHeaders] = useState('');
  const [copies, setCopies] = useState('1');
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>();

  const publish = async (): Promise<void> => {
    const input = parseMessageInput(body, headers);
    if (!input.ok) return setResult({ ok: false, text: input.error });
    try {
      const r = await platformQueries.publishQueueMessage({
        subject,
        body: input.body,
        headers: input.headers,
        consumerGroup: group || undefined,
        count: Number(copies) || 1,
      });
      const n = r.messageIds.length;
      const to = r.groups.length > 0 ? r.groups.join(', ') : 'the first consumer group to receive';
      setResult({ ok: true, text: `Published ${n} message${n === 1 ? '' : 's'} to ${to} · correlation id ${r.correlationId}` });
      onPublished();
    } catch (err) {
      setResult({ ok: false, text: (err as Error).message });
    }
  };

  return (
    <form
      className="pv-form"
      aria-label="Publish a test message"
      onSubmit={(e) => {
        e.preventDefault();
        void publish();
      }}
    >
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
      <label className="pv-wide">
        Body (JSON)
        <textarea rows={4} spellCheck={false} value={body} onChange={(e) => setBody(e.currentTarget.value)} />
      </label>
      <label className="pv-wide">
        Headers (JSON object, optional)
        <textarea rows={2} spellCheck={false} value={headers} placeholder='{"tenant": "acme"}' onChange={(e) => setHeaders(e.currentTarget.value)} />
      </label>
      <div className="pv-form-actions">
        <button type="submit" className="primary">
          Publish
        </button>
        {result ? (
          <span role={result.ok ? 'status' : 'alert'} className={result.ok ? 'muted' : 'error'}>
            {result.text}
          </span>
        ) : null}
      </div>
    </form>
  );
}
