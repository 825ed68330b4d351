import { counted } from '../../shell/format.ts';
import type { RunCall } from '../../../shared/trace-types.ts';

interface BodyPreview {
  text: string;
  bytes: number;
  truncated: boolean;
}

const headersOf = (v: unknown): Record<string, string> | undefined => (v && typeof v === 'object' ? (v as Record<string, string>) : undefined);
const bodyOf = (v: unknown): BodyPreview | undefined => (v && typeof v === 'object' && typeof (v as BodyPreview).text === 'string' ? (v as BodyPreview) : undefined);

/**
 * An outbound HTTP call of a rest or rest-dynamic step as it went over the wire: method, full
 * URL, status, the request and response headers (credentials masked) and the start of each body.
 */
export function HttpExchange({ call }: { call: RunCall }) {
  const d = call.detail ?? {};
  const method = typeof d.method === 'string' ? d.method : call.name.split(' ')[0];
  const url = typeof d.url === 'string' ? d.url : call.name.slice(method.length + 1);
  const request = headersOf(d.requestHeaders);
  const response = headersOf(d.responseHeaders);
  const requestBody = bodyOf(d.requestBody);
  const responseBody = bodyOf(d.responseBody);
  return (
    <details className="http-exchange" aria-label={`HTTP exchange ${method} ${url}`}>
      <summary className="exchange-line">
        {method} {url} → {call.status ?? (call.error ? 'no answer' : '…')}
      </summary>
      <h5>Request headers</h5>
      <HeaderTable label="Request headers" headers={request} />
      {requestBody ? <Body label="Request body" body={requestBody} /> : null}
      <h5>Response headers</h5>
      {response ? <HeaderTable label="Response headers" headers={response} /> : <p className="muted">{d.cached ? 'Answered from the cache.' : 'No response.'}</p>}
      {responseBody ? <Body label="Response body" body={responseBody} /> : null}
    </details>
  );
}

function HeaderTable({ label, headers }: { label: string; headers: Record<string, string> | undefined }) {
  const rows = Object.entries(headers ?? {});
  if (rows.length === 0) return <p className="muted">none</p>;
  return (
    <table aria-label={label}>
      <tbody>
        {rows.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Body({ label, body }: { label: string; body: BodyPreview }) {
  return (
    <>
      <h5>
        {label} <span className="muted">({counted(body.bytes, 'byte')}{body.truncated ? ', first 2 KB shown' : ''})</span>
      </h5>
      <pre aria-label={label}>{body.text}</pre>
    </>
  );
}
