import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { SseFrame } from '../../../shared/request-types.ts';

/**
 * Reads an event stream as it arrives (the text/event-stream format, parsed by eventsource-parser):
 * `event:`, `data:` (lines joined with newlines) and `id:` fields, a blank line ends a frame, and a
 * comment line (`: ping`) is a heartbeat. Chunks may split anywhere, even inside a line.
 */
export class SseReader {
  private frames: SseFrame[] = [];
  private now = 0;
  private readonly parser = createParser({
    onEvent: (message) => this.frames.push(frameOf(message, this.atMs())),
    onComment: (comment) => this.frames.push({ atMs: this.atMs(), data: comment.trim(), heartbeat: true }),
  });

  constructor(private readonly started: number) {}

  /** Frames completed by this chunk. */
  push(chunk: string, now = performance.now()): SseFrame[] {
    this.now = now;
    this.parser.feed(chunk);
    return this.frames.splice(0);
  }

  private atMs(): number {
    return Math.round(this.now - this.started);
  }
}

function frameOf(message: EventSourceMessage, atMs: number): SseFrame {
  const frame: SseFrame = { atMs, data: message.data };
  if (message.event !== undefined) frame.event = message.event;
  if (message.id !== undefined) frame.id = message.id;
  if (frame.event === 'error') frame.mark = 'error';
  return frame;
}

/**
 * The event name and data of one frame a runtime wrote (the live feed's view of it); a heartbeat
 * comment becomes the event `:`.
 */
export function parseSseFrame(frame: string): { event?: string; data: string } {
  let parsed: { event?: string; data: string } = { data: '' };
  const parser = createParser({
    onEvent: (message) => (parsed = message.event === undefined ? { data: message.data } : { event: message.event, data: message.data }),
    onComment: (comment) => (parsed = { event: ':', data: comment.trim() }),
  });
  parser.feed(frame.endsWith('\n\n') ? frame : `${frame.replace(/\n?$/, '\n')}\n`);
  return parsed;
}

/** Marks the last real event of a stream the server ended as its final frame. */
export function markFinal(frames: SseFrame[]): void {
  for (let i = frames.length - 1; i >= 0; i--) {
    if (frames[i].heartbeat) continue;
    if (!frames[i].mark) frames[i].mark = 'final';
    return;
  }
}
