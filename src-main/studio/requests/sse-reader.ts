import type { SseFrame } from '../../../shared/request-types.ts';

/**
 * Reads an event stream as it arrives (the text/event-stream format): `event:`, `data:` (lines
 * joined with newlines) and `id:` fields, a blank line ends a frame, and a comment line (`: ping`)
 * is a heartbeat. Chunks may split anywhere, even inside a line.
 */
export class SseReader {
  private buffer = '';
  private event: string | undefined;
  private data: string[] = [];
  private id: string | undefined;
  private hasFields = false;

  constructor(private readonly started: number) {}

  /** Frames completed by this chunk. */
  push(chunk: string, now = performance.now()): SseFrame[] {
    this.buffer += chunk;
    const frames: SseFrame[] = [];
    let start = 0;
    for (;;) {
      const nl = this.buffer.indexOf('\n', start);
      if (nl === -1) break;
      let line = this.buffer.slice(start, nl);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      start = nl + 1;
      this.line(line, now, frames);
    }
    this.buffer = this.buffer.slice(start);
    return frames;
  }

  private line(line: string, now: number, frames: SseFrame[]): void {
    const atMs = Math.round(now - this.started);
    if (line === '') {
      if (this.hasFields) {
        const frame: SseFrame = { atMs, data: this.data.join('\n') };
        if (this.event !== undefined) frame.event = this.event;
        if (this.id !== undefined) frame.id = this.id;
        if (frame.event === 'error') frame.mark = 'error';
        frames.push(frame);
      }
      this.event = undefined;
      this.data = [];
      this.id = undefined;
      this.hasFields = false;
      return;
    }
    if (line.startsWith(':')) {
      frames.push({ atMs, data: line.slice(1).trim(), heartbeat: true });
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.hasFields = true;
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
  }
}

/** Marks the last real event of a stream the server ended as its final frame. */
export function markFinal(frames: SseFrame[]): void {
  for (let i = frames.length - 1; i >= 0; i--) {
    if (frames[i].heartbeat) continue;
    if (!frames[i].mark) frames[i].mark = 'final';
    return;
  }
}
