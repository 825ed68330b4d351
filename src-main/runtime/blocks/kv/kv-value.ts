import { isRawContent } from '../../core/message.ts';

/** How a value is stored: JSON text (default), plain text, or the bytes themselves. */
export type ValueFormat = 'json' | 'text' | 'raw';
export const VALUE_FORMATS = ['json', 'text', 'raw'] as const;

export const formatSetting = {
  type: 'string',
  enum: VALUE_FORMATS,
  default: 'json',
  description:
    '`json` stores the value as JSON text and reads it back as a value; `text` stores a string as is; `raw` stores bytes (raw content or a string) and reads them back as raw content `{contentType, rawData}`.',
} as const;

export function encodeValue(value: unknown, format: ValueFormat): Uint8Array {
  if (format === 'raw' || (format === 'text' && isRawContent(value))) {
    if (isRawContent(value)) return typeof value.rawData === 'string' ? Buffer.from(value.rawData) : value.rawData;
    if (value instanceof Uint8Array) return value;
    if (typeof value === 'string') return Buffer.from(value);
    throw new Error(`format ${format} stores raw content or a string; got ${describe(value)} (use format: json)`);
  }
  if (format === 'text') return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value ?? null));
  if (isRawContent(value)) throw new Error('the value is raw content; store it with format: raw');
  return Buffer.from(JSON.stringify(value ?? null));
}

export function decodeValue(bytes: Uint8Array, format: ValueFormat, what: string): unknown {
  if (format === 'raw') return { contentType: 'application/octet-stream', rawData: bytes };
  const text = Buffer.from(bytes).toString('utf8');
  if (format === 'text') return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${what} is not JSON (${bytes.length} bytes); read it with format: text or raw`);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : typeof value;
}
