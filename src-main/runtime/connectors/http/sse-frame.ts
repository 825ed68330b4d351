import { isRawContent } from '../../core/message.ts';

/** The comment line an idle stream writes every heartbeat (spec 2 §6). */
export const HEARTBEAT_FRAME = ': ping\n\n';

/** One event: optional `event:` line, one `data:` line per line of the payload, blank line. */
export function sseFrame(event: string | undefined, data: string): string {
  let frame = event ? `event: ${event}\n` : '';
  for (const line of data.split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
  return frame + '\n';
}

/** A frame payload as text: strings as they are, raw content as its text, anything else as JSON. */
export function frameData(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isRawContent(value)) return typeof value.rawData === 'string' ? value.rawData : Buffer.from(value.rawData).toString('utf8');
  return JSON.stringify(value === undefined ? null : value);
}

/** An event name becomes a header-like line, so a line break in it would forge another field. */
export function hasLineBreak(text: string | undefined): boolean {
  return text !== undefined && /[\r\n]/.test(text);
}
