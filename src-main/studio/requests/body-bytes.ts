import { randomBytes } from 'node:crypto';
import type { BodyView, RequestBody } from '../../../shared/request-types.ts';
import { StudioError } from '../studio-error.ts';

/** Bytes of a body kept for display; the size of the rest is still reported. */
export const VIEW_LIMIT = 1024 * 1024;

export interface EncodedBody {
  bytes: Buffer | undefined;
  /** The Content-Type the body implies, when the request does not set one. */
  contentType: string | undefined;
}

/**
 * The exact bytes a composer body sends. JSON is checked before anything goes out, so a typo is
 * reported with its position instead of reaching the flow as a 400.
 */
export function encodeBody(body: RequestBody): EncodedBody {
  switch (body.kind) {
    case 'none':
      return { bytes: undefined, contentType: undefined };
    case 'json': {
      const text = body.text;
      if (text.trim() !== '') {
        try {
          JSON.parse(text);
        } catch (err) {
          throw new StudioError(`the JSON body is not valid: ${(err as Error).message}; fix it or switch the body to raw text`);
        }
      }
      return { bytes: Buffer.from(text, 'utf8'), contentType: 'application/json' };
    }
    case 'text':
      return { bytes: Buffer.from(body.text, 'utf8'), contentType: body.contentType || 'text/plain; charset=utf-8' };
    case 'bytes':
      return { bytes: Buffer.from(body.base64, 'base64'), contentType: body.contentType };
    case 'multipart':
      return multipart(body.parts);
  }
}

function multipart(parts: Extract<RequestBody, { kind: 'multipart' }>['parts']): EncodedBody {
  const boundary = `----FlowStudio${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if (!part.name) throw new StudioError('every multipart part needs a name');
    const name = quoted(part.name);
    if (part.file) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${quoted(part.file.fileName)}"\r\nContent-Type: ${part.file.contentType || 'application/octet-stream'}\r\n\r\n`,
        ),
        Buffer.from(part.file.base64, 'base64'),
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${part.value ?? ''}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { bytes: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function quoted(text: string): string {
  return text.replace(/["\\\r\n]/g, (c) => (c === '"' ? '%22' : c === '\\' ? '\\\\' : ''));
}

const TEXT_TYPE = /^(text\/|application\/(json|[^;]*\+json|xml|[^;]*\+xml|x-www-form-urlencoded|javascript|x-ndjson)|multipart\/)/i;

/** A body for display: text when the type (or the bytes) say text, else base64; cut at a limit. */
export function bodyView(bytes: Uint8Array | undefined, contentType: string | undefined, limit = VIEW_LIMIT): BodyView {
  const total = bytes?.byteLength ?? 0;
  const view: BodyView = { bytes: total, truncated: total > limit };
  if (contentType) view.contentType = contentType;
  if (!bytes || total === 0) {
    view.text = '';
    return view;
  }
  const shown = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(total, limit));
  const text = decodeText(shown, contentType);
  if ((contentType && TEXT_TYPE.test(contentType)) || (!contentType && !text.includes('\uFFFD'))) view.text = text;
  else if (!text.includes('\uFFFD') && !/[\u0000-\u0008\u000e-\u001f]/.test(text)) view.text = text;
  else view.base64 = shown.toString('base64');
  return view;
}

/**
 * Text in the charset its Content-Type names (ISO-8859-1, windows-1251, Shift_JIS…), as a browser
 * reads it; UTF-8 when none is named or the name is unknown, so a Latin-1 "café" is not shown as
 * "caf\uFFFD" nor taken for binary.
 */
function decodeText(bytes: Buffer, contentType: string | undefined): string {
  const charset = contentType ? /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1] : undefined;
  if (charset) {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      // An unknown label: read as UTF-8 below.
    }
  }
  return bytes.toString('utf8');
}

/** A header's value from name/value pairs, matched case-insensitively. */
export function headerOf(pairs: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
  const lower = name.toLowerCase();
  return pairs.find(([k]) => k.toLowerCase() === lower)?.[1];
}
