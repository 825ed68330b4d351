import { useState } from 'react';
import { platformQueries } from '../../api/platform-queries.ts';
import { parseMessageInput } from './message-input.ts';

/** Publishes a test message to a topic on the platform plane or a deployment's own. */
export function TopicPublishForm({ subject: initialSubject, plane: initialPlane, onPublished }: { subject: string; plane: string; onPublished: () => void }) {
  const [subject, setSubject] = useState(initialSubject);
  const [plane, setPlane] = useState(initialPlane);
  const [body, setBody] = useState('{\n  "test": true\n}');
  const [headers, setHeaders] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>();

  const publish = async (): Promise<void> => {
    const input = parseMessageInput(body, headers);
    if (!input.ok) return setResult({ ok: false, text: input.error });
    try {
      const r = await platformQueries.publishTopicMessage({ subject, plane, body: input.body, headers: input.headers });
      setResult({ ok: true, text: `Published message ${r.messageIds[0]} · correlation id ${r.correlationId}` });
      onPublished();
    } catch (err) {
      setResult({ ok: false, text: (err as Error).message });
    }
  };

  return (
    <form
      className="pv-form"
      aria-label="Publish a test message to a topic"
      onSubmit={(e) => {
        e.preventDefault();
        void publish();
      }}
    >
      <label>
        Topic
        <input value={subject} onChange={(e) => setSubject(e.currentTarget.value)} required />
      </label>
      <label title="platform: system topics every deployment sees; deployment/<id>: one deployment's own">
        Plane
        <input value={plane} onChange={(e) => setPlane(e.currentTarget.value)} placeholder="platform or deployment/<id>" required />
      </label>
      <label className="pv-wide">
        Body (JSON)
        <textarea rows={4} spellCheck={false} value={body} onChange={(e) => setBody(e.currentTarget.value)} />
      </label>
      <label className="pv-wide">
        Headers (JSON object, optional)
        <textarea rows={2} spellCheck={false} value={headers} onChange={(e) => setHeaders(e.currentTarget.value)} />
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
