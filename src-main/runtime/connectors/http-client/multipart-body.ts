import { randomBytes } from 'node:crypto';
import { isRawContent } from '../../core/message.ts';
import { renderValue } from './request-rendering.ts';

/** The keys that make an object a part description rather than a value to send as JSON text. */
const PART_KEYS = ['data', 'filename', 'contentType', 'encoding'];

interface RenderedPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/**
 * Renders a parts map as multipart/form-data (RFC 7578) with a generated boundary. Keys are part
 * names; a scalar is a text field; an object may give data, filename, contentType and encoding
 * (`text`, the default, or `base64`); a list repeats the name. An inbound `body.parts` has this
 * shape, so it can be forwarded as is.
 *
 * Kept rather than built on undici's FormData or form-data-encoder: both take a WHATWG FormData,
 * which cannot express a part with its own Content-Type but no filename (an inbound text part
 * with `contentType`, a JSON part for an API that wants one) — the parts map of spec 2 §2.10
 * can — and undici's encoding is asynchronous where this is called while rendering a request.
 */
export function renderMultipart(parts: unknown): { body: Buffer; contentType: string } {
  if (parts === null || typeof parts !== 'object' || Array.isArray(parts) || parts instanceof Uint8Array) {
    throw new Error('bodyType multipart needs body to be a map of parts, e.g. {"file": {"data": …, "filename": "a.pdf"}}');
  }
  if (isRawContent(parts) && 'parts' in parts) {
    throw new Error('bodyType multipart needs a map of parts; to forward an inbound multipart body write body: body.parts');
  }
  const rendered: RenderedPart[] = [];
  for (const [name, value] of Object.entries(parts)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === null || item === undefined) continue;
      rendered.push(partOf(name, item));
    }
  }
  let boundary = newBoundary();
  while (rendered.some((p) => p.data.includes(boundary))) boundary = newBoundary();
  const chunks: Buffer[] = [];
  for (const p of rendered) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(p.name)}"`;
    if (p.filename !== undefined) head += `; filename="${quoted(p.filename)}"`;
    head += '\r\n';
    if (p.contentType !== undefined) head += `Content-Type: ${p.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), p.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function partOf(name: string, value: unknown): RenderedPart {
  refuseLineBreak(name, 'part name', name);
  if (value instanceof Uint8Array) return { name, data: Buffer.from(value.buffer, value.byteOffset, value.byteLength) };
  if (typeof value !== 'object' || value === null || !PART_KEYS.some((k) => k in value)) {
    return { name, data: Buffer.from(renderValue(value), 'utf8') };
  }
  const spec = value as Record<string, unknown>;
  const filename = optionalText(spec.filename, name, 'filename');
  const contentType = optionalText(spec.contentType, name, 'contentType');
  const encoding = spec.encoding ?? 'text';
  if (encoding !== 'text' && encoding !== 'base64') {
    throw new Error(`multipart part "${name}": encoding must be text or base64, got ${JSON.stringify(encoding)}`);
  }
  return {
    name,
    filename,
    // A file without a declared type is opaque bytes, as browsers send it.
    contentType: contentType ?? (filename !== undefined ? 'application/octet-stream' : undefined),
    data: dataOf(spec.data, encoding, name),
  };
}

function dataOf(data: unknown, encoding: 'text' | 'base64', name: string): Buffer {
  if (data === undefined || data === null) return Buffer.alloc(0);
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (encoding === 'base64') {
    if (typeof data !== 'string' || !/^[A-Za-z0-9+/_\-\s]*={0,2}\s*$/.test(data)) {
      throw new Error(`multipart part "${name}": data is not base64 text although encoding is base64`);
    }
    return Buffer.from(data, 'base64');
  }
  return Buffer.from(renderValue(data), 'utf8');
}

function optionalText(value: unknown, part: string, what: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value);
  refuseLineBreak(text, what, part);
  return text;
}

/** A line break would end the part header early and let a value forge headers of its own. */
function refuseLineBreak(text: string, what: string, part: string): void {
  if (/[\r\n]/.test(text)) throw new Error(`multipart part "${part.replace(/[\r\n]/g, ' ')}": the ${what} contains a carriage return or line feed`);
}

/** Quotes in a disposition parameter are percent-encoded, as the HTML form encoding does. */
function quoted(text: string): string {
  return text.replace(/"/g, '%22');
}

function newBoundary(): string {
  return `----FlowStudioFormBoundary${randomBytes(12).toString('hex')}`;
}
