import { useState } from 'react';
import { platformQueries } from '../../api/platform-queries.ts';
import { TestMessageForm } from './TestMessageForm.tsx';

/** Publishes a test message to a topic on the platform plane or a deployment's own. */
export function TopicPublishForm({ subject: initialSubject, plane: initialPlane, onPublished }: { subject: string; plane: string; onPublished: () => void }) {
  const [subject, setSubject] = useState(initialSubject);
  const [plane, setPlane] = useState(initialPlane);

  const send = async (message: { body: unknown; headers: Record<string, string> }): Promise<string> => {
    const r = await platformQueries.publishTopicMessage({ subject, plane, ...message });
    onPublished();
    return `Published message ${r.messageIds[0]} · correlation id ${r.correlationId}`;
  };

  return (
    <TestMessageForm label="Publish a test message to a topic" send={send}>
      <label>
        Topic
        <input value={subject} onChange={(e) => setSubject(e.currentTarget.value)} required />
      </label>
      <label title="platform: system topics every deployment sees; deployment/<id>: one deployment's own">
        Plane
        <input value={plane} onChange={(e) => setPlane(e.currentTarget.value)} placeholder="platform or deployment/<id>" required />
      </label>
    </TestMessageForm>
  );
}
