import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BodyView, HistoryEntry } from '../../../shared/request-types.ts';

const MAX_ENTRIES = 200;
/** Body characters kept per history entry on disk; the composer shows the rest only live. */
const KEPT_BODY_CHARS = 256 * 1024;
const SAVE_DELAY_MS = 300;

/**
 * Every request the composer sent, newest first, with its response and stream frames. Kept in
 * the data directory (not the workspace: it is a person's scratch pad, not the project's) so it
 * survives a restart; bounded in entries and body size.
 */
export class RequestHistory {
  private entries: HistoryEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'request-history.json');
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      if (Array.isArray(parsed)) this.entries = (parsed as HistoryEntry[]).filter((e) => e && typeof e.id === 'string').slice(0, MAX_ENTRIES);
    } catch {
      // No history yet, or a broken file: start afresh rather than refuse to start.
    }
  }

  list(): HistoryEntry[] {
    return this.entries;
  }

  add(entry: HistoryEntry): void {
    const kept: HistoryEntry = { ...entry, response: { ...entry.response, body: shortened(entry.response.body) } };
    this.entries = [kept, ...this.entries.filter((e) => e.id !== entry.id)].slice(0, MAX_ENTRIES);
    this.scheduleSave();
  }

  clear(): void {
    this.entries = [];
    this.scheduleSave();
  }

  /** Writes what is pending now (on shutdown). */
  flush(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.save();
  }

  private scheduleSave(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.save();
    }, SAVE_DELAY_MS);
  }

  private save(): void {
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(this.entries));
      renameSync(tmp, this.file);
    } catch {
      // History is a convenience; a full disk must not break sending requests.
    }
  }
}

function shortened(body: BodyView): BodyView {
  if (body.text !== undefined && body.text.length > KEPT_BODY_CHARS) return { ...body, text: body.text.slice(0, KEPT_BODY_CHARS), truncated: true };
  if (body.base64 !== undefined && body.base64.length > KEPT_BODY_CHARS) return { ...body, base64: body.base64.slice(0, KEPT_BODY_CHARS), truncated: true };
  return body;
}
