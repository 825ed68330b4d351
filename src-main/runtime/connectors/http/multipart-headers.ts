/**
 * The header block of every form-data part, in order. busboy parses and validates the body but
 * does not expose a part's headers, which spec 2 §2.5 puts in `parts.<name>.headers`; the body is
 * already in memory (bounded by maxBodyBytes), so one indexOf pass over it recovers them.
 */
export function partHeaderBlocks(raw: Buffer, boundary: string): Array<Record<string, string>> {
  const opening = `--${boundary}`;
  const delimiter = Buffer.from(`\r\n${opening}`, 'latin1');
  const out: Array<Record<string, string>> = [];
  // Where the text after a delimiter starts; the first delimiter may open the body with no CRLF.
  let next = raw.toString('latin1', 0, opening.length) === opening ? opening.length : afterDelimiter(raw, delimiter, 0);
  while (next !== -1) {
    if (raw[next] === 0x2d && raw[next + 1] === 0x2d) break; // `--` closes the body
    const lineEnd = raw.indexOf('\r\n', next, 'latin1');
    if (lineEnd === -1) break;
    const headersAt = lineEnd + 2;
    const blank = raw.indexOf('\r\n\r\n', lineEnd, 'latin1');
    if (blank === -1) break;
    const block = blank === lineEnd ? '' : raw.toString('utf8', headersAt, blank);
    const headers = parseHeaderLines(block);
    if (isFormData(headers['content-disposition'])) out.push(headers);
    next = afterDelimiter(raw, delimiter, blank + 4);
  }
  return out;
}

function afterDelimiter(raw: Buffer, delimiter: Buffer, from: number): number {
  const at = raw.indexOf(delimiter, from);
  return at === -1 ? -1 : at + delimiter.length;
}

function parseHeaderLines(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  // Obsolete line folding (a continuation line starting with whitespace) joins the previous value.
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === '__proto__') continue;
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}

/** busboy skips parts that are not `form-data`; the scan does the same to stay in step. */
function isFormData(disposition: string | undefined): boolean {
  return disposition !== undefined && /^\s*form-data\s*(;|$)/i.test(disposition);
}
