import { counted } from '../../shell/format.ts';
import { lazy, Suspense } from 'react';
import type { MultipartPart, RequestBody } from '../../../shared/request-types.ts';
import { jsonBodyProblem } from './json-body.ts';

// Monaco loads with the first JSON body, as it does for resources.
const JsonBodyPane = lazy(() => import('./JsonBodyPane.tsx'));

const KINDS: Array<{ kind: RequestBody['kind']; label: string }> = [
  { kind: 'none', label: 'No body' },
  { kind: 'json', label: 'JSON' },
  { kind: 'text', label: 'Raw text' },
  { kind: 'multipart', label: 'Multipart' },
];

/**
 * The request body: JSON in an editor (checked as you type, `{{` completes the variables), raw
 * text with its type, or multipart with files.
 */
export function BodyEditor({ body, onChange, variables = [] }: { body: RequestBody; onChange(body: RequestBody): void; variables?: string[] }) {
  const switchKind = (kind: RequestBody['kind']): void => {
    const text = body.kind === 'json' || body.kind === 'text' ? body.text : '';
    if (kind === 'json') onChange({ kind, text });
    else if (kind === 'text') onChange({ kind, text, contentType: 'text/plain; charset=utf-8' });
    else if (kind === 'multipart') onChange({ kind, parts: [{ name: 'field', value: '' }] });
    else onChange({ kind: 'none' });
  };
  return (
    <div className="body-editor">
      <div className="body-kinds" role="radiogroup" aria-label="Body type">
        {KINDS.map((k) => (
          <label key={k.kind}>
            <input type="radio" name="body-kind" checked={body.kind === k.kind} onChange={() => switchKind(k.kind)} /> {k.label}
          </label>
        ))}
        {body.kind === 'bytes' ? <span className="muted">exact bytes of a captured request ({counted(Math.floor((body.base64.length * 3) / 4), 'byte')})</span> : null}
      </div>
      {body.kind === 'json' ? <JsonBody text={body.text} variables={variables} onChange={(text) => onChange({ kind: 'json', text })} /> : null}
      {body.kind === 'text' ? (
        <>
          <input aria-label="Content type" className="content-type" value={body.contentType} onChange={(e) => onChange({ ...body, contentType: e.target.value })} />
          <textarea aria-label="Body" className="body-text" spellCheck={false} value={body.text} onChange={(e) => onChange({ ...body, text: e.target.value })} rows={8} />
        </>
      ) : null}
      {body.kind === 'multipart' ? <MultipartBody parts={body.parts} onChange={(parts) => onChange({ kind: 'multipart', parts })} /> : null}
    </div>
  );
}

function JsonBody({ text, onChange, variables }: { text: string; onChange(text: string): void; variables: string[] }) {
  const problem = jsonBodyProblem(text)?.message;
  return (
    <>
      <Suspense fallback={<div className="json-body-editor muted">Loading the editor…</div>}>
        <JsonBodyPane text={text} onChange={onChange} variables={variables} />
      </Suspense>
      {problem ? (
        <p className="field-error" role="status">
          Not valid JSON: {problem}
        </p>
      ) : null}
      <button type="button" className="link" disabled={problem !== undefined || text.trim() === ''} onClick={() => onChange(JSON.stringify(JSON.parse(text), null, 2))}>
        Format
      </button>
    </>
  );
}

function MultipartBody({ parts, onChange }: { parts: MultipartPart[]; onChange(parts: MultipartPart[]): void }) {
  const update = (i: number, part: MultipartPart): void => onChange(parts.map((p, j) => (j === i ? part : p)));
  const readFile = (i: number, file: File | undefined): void => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      update(i, { name: parts[i].name, file: { fileName: file.name, contentType: file.type || 'application/octet-stream', base64: url.slice(url.indexOf(',') + 1) } });
    };
    reader.readAsDataURL(file);
  };
  return (
    <div className="multipart" role="group" aria-label="Multipart parts">
      {parts.map((p, i) => (
        <div key={i} className="kv-row">
          <input className="kv-name" value={p.name} placeholder="name" aria-label={`Part name ${i + 1}`} onChange={(e) => update(i, { ...p, name: e.target.value })} />
          {p.file ? (
            <span className="file-part">
              {p.file.fileName} <span className="muted">({p.file.contentType})</span>
              <button type="button" className="link" onClick={() => update(i, { name: p.name, value: '' })}>
                use text
              </button>
            </span>
          ) : (
            <>
              <input className="kv-value" value={p.value ?? ''} placeholder="value" aria-label={`Part value ${i + 1}`} onChange={(e) => update(i, { ...p, value: e.target.value })} />
              <input type="file" aria-label={`Part file ${i + 1}`} onChange={(e) => readFile(i, e.target.files?.[0])} />
            </>
          )}
          <button type="button" className="icon" aria-label={`Remove part ${p.name}`} onClick={() => onChange(parts.filter((_, j) => j !== i))}>
            ×
          </button>
        </div>
      ))}
      <button type="button" className="link" onClick={() => onChange([...parts, { name: '', value: '' }])}>
        + add part
      </button>
    </div>
  );
}
