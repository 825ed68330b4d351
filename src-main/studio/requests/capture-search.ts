/** The parts of a captured request a search can look in. */
export interface SearchableCapture {
  path: string;
  status: number;
  headers: string;
  body: string;
}

type Term = { field: 'path' | 'status' | 'header' | 'body' | 'any'; value: string };

/**
 * Parses a capture search: `path:/orders status:4xx header:x-notes-signature body:inv-7 free
 * words`. Every term must match (AND); a free word matches any part. Values are compared in
 * lower case; `status:` takes an exact status or a class such as `5xx`.
 */
export function parseCaptureSearch(search: string | undefined): (c: SearchableCapture) => boolean {
  const terms: Term[] = [];
  for (const token of (search ?? '').trim().split(/\s+/)) {
    if (token === '') continue;
    const m = /^(path|status|header|headers|body):(.*)$/i.exec(token);
    if (m && m[2] !== '') {
      const field = m[1].toLowerCase();
      terms.push({ field: field === 'headers' ? 'header' : (field as Term['field']), value: m[2].toLowerCase() });
    } else terms.push({ field: 'any', value: token.toLowerCase() });
  }
  if (terms.length === 0) return () => true;
  return (c) => terms.every((t) => matches(t, c));
}

function matches(t: Term, c: SearchableCapture): boolean {
  switch (t.field) {
    case 'path':
      return c.path.includes(t.value);
    case 'status':
      return statusMatches(t.value, c.status);
    case 'header':
      return c.headers.includes(t.value);
    case 'body':
      return c.body.includes(t.value);
    case 'any':
      return c.path.includes(t.value) || String(c.status) === t.value || c.headers.includes(t.value) || c.body.includes(t.value);
  }
}

function statusMatches(value: string, status: number): boolean {
  const cls = /^([1-5])xx$/.exec(value);
  if (cls) return Math.floor(status / 100) === Number(cls[1]);
  return String(status) === value;
}
