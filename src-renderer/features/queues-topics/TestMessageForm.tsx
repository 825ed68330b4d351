import { useState, type ReactNode } from 'react';
import { parseMessageInput } from './message-input.ts';

interface Props {
  label: string;
  /** The fields that say where the message goes (subject, group, plane, copies). */
  children: ReactNode;
  /** Publishes the parsed message; resolves to the line shown on success. */
  send(message: { body: unknown; headers: Record<string, string> }): Promise<string>;
}

/** A test message's body and headers, the Publish button and its outcome, for queues and topics alike. */
export function TestMessageForm({ label, children, send }: Props) {
  const [body, setBody] = useState('{\n  "test": true\n}');
  const [headers, setHeaders] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>();

  const publish = async (): Promise<void> => {
    const input = parseMessageInput(body, headers);
    if (!input.ok) return setResult({ ok: false, text: input.error });
    try {
      setResult({ ok: true, text: await send({ body: input.body, headers: input.headers }) });
    } catch (err) {
      setResult({ ok: false, text: (err as Error).message });
    }
  };

  return (
    <form
      className="pv-form"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        void publish();
      }}
    >
      {children}
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
