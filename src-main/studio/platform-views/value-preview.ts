import type { ValuePreview } from '../../../shared/platform-views.ts';

/** Text shown at most; longer values say they were cut. */
const MAX_TEXT_CHARS = 256 * 1024;
/** Binary shown as hex up to this many bytes. */
const MAX_HEX_BYTES = 4096;

/**
 * Bytes as a person should see them: JSON pretty-printed, UTF-8 text as it is, anything else as
 * a hex dump with an ASCII column.
 */
export function previewBytes(bytes: Uint8Array): ValuePreview {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = readableText(buf);
  if (text === undefined) {
    return { kind: 'binary', hex: hexDump(buf.subarray(0, MAX_HEX_BYTES)), bytes: buf.length, truncated: buf.length > MAX_HEX_BYTES };
  }
  return previewText(text, buf.length);
}

/** Text (for instance stored JSON) as a preview: pretty JSON when it parses, else text. */
export function previewText(text: string, bytes = Buffer.byteLength(text), cut = false): ValuePreview {
  const json = parseJson(text);
  if (json !== undefined) return clip('json', JSON.stringify(json.value, null, 2), bytes, cut);
  return clip('text', text, bytes, cut);
}

/** A JSON value (a message body) as a preview, cut to `maxChars`. */
export function previewJson(value: unknown, maxChars = MAX_TEXT_CHARS): ValuePreview {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  const bytes = Buffer.byteLength(text);
  return text.length > maxChars ? { kind: 'json', text: text.slice(0, maxChars), bytes, truncated: true } : { kind: 'json', text, bytes, truncated: false };
}

/** What an editor starts from: pretty JSON for compact JSON, else the text as stored; undefined for binary. */
export function editableText(bytes: Uint8Array): { text: string; format: 'json' | 'text' } | undefined {
  const text = readableText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (text === undefined) return undefined;
  const json = parseJson(text);
  // JSON mode saves compact, so it is offered only for a value stored that way: it gives back the
  // same bytes. Any other layout ('{ "a": 1 }', '1.0', a trailing newline) was written as text
  // and is edited as text, or a save would rewrite what the person typed.
  return json !== undefined && JSON.stringify(json.value) === text ? { text: JSON.stringify(json.value, null, 2), format: 'json' } : { text, format: 'text' };
}

export function hexDump(buf: Buffer): string {
  const lines: string[] = [];
  for (let offset = 0; offset < buf.length; offset += 16) {
    const row = buf.subarray(offset, offset + 16);
    const hex = [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  |${ascii}|`);
  }
  return lines.join('\n');
}

function clip(kind: 'json' | 'text', text: string, bytes: number, cut: boolean): ValuePreview {
  if (text.length <= MAX_TEXT_CHARS) return { kind, text, bytes, truncated: cut };
  return { kind, text: text.slice(0, MAX_TEXT_CHARS), bytes, truncated: true };
}

function parseJson(text: string): { value: unknown } | undefined {
  if (text.trim() === '') return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** UTF-8 text without control characters other than tab and line breaks, else undefined. */
function readableText(buf: Buffer): string | undefined {
  const text = buf.toString('utf8');
  if (text.includes('\uFFFD') && !Buffer.from(text, 'utf8').equals(buf)) return undefined;
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text)) return undefined;
  return text;
}
