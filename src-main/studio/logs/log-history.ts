import type { Statement } from 'better-sqlite3';
import type { Retention } from '../../../shared/history-types.ts';
import type { LogFeedEvent } from '../../../shared/feed-events.ts';
import type { LogQuery } from '../../../shared/log-types.ts';
import { HistoryWriter } from '../state/history-writer.ts';
import type { StudioDb } from '../state/studio-db.ts';

interface Line {
  seq: number;
  event: LogFeedEvent;
  fields: string;
  bytes: number;
}

/** Lines a query answers at most. */
const MAX_LINES = 5_000;

/**
 * Every log line of the studio's runtimes (and the line it writes for each failed or rejected
 * run) in studio.db, whether or not a window listened, so the Logs panel shows them again after
 * a restart. Bounded by lines and bytes; the oldest go first.
 */
export class LogHistory {
  private readonly writer: HistoryWriter<Line>;
  private readonly select: Statement;
  private readonly selectRun: Statement;
  private nextSeq: number;
  private count: number;
  private bytes: number;
  private retention: Retention;

  constructor(
    private readonly db: StudioDb,
    retention: Retention,
    onError: (err: unknown) => void = () => {},
  ) {
    this.writer = new HistoryWriter<Line>(
      db,
      {
        table: 'logs',
        key: 'seq',
        upsert: 'INSERT INTO logs (seq, at, integration, level, msg, fields, bytes) VALUES (?, ?, ?, ?, ?, ?, ?)',
        row: (l) => [l.seq, l.event.at, l.event.integration ?? null, l.event.log.level, l.event.log.msg, l.fields, l.bytes],
      },
      onError,
    );
    this.select = db.prepare('SELECT at, integration, level, msg, fields, seq FROM logs WHERE seq < ? ORDER BY seq DESC LIMIT ?');
    // Lines of one run: its id is a field, found by text first and then checked exactly.
    this.selectRun = db.prepare(`SELECT at, integration, level, msg, fields, seq FROM logs WHERE seq < ? AND fields LIKE ? ESCAPE '\\' ORDER BY seq DESC LIMIT ?`);
    const totals = db.prepare('SELECT COUNT(*) AS count, COALESCE(SUM(bytes), 0) AS bytes, COALESCE(MAX(seq), 0) AS last FROM logs').get() as { count: number; bytes: number; last: number };
    this.nextSeq = totals.last + 1;
    this.count = totals.count;
    this.bytes = totals.bytes;
    this.retention = retention;
  }

  get usage(): { count: number; bytes: number } {
    return { count: this.count, bytes: this.bytes };
  }

  add(event: LogFeedEvent): void {
    const fields = JSON.stringify(event.log.fields);
    const bytes = 64 + event.log.msg.length + fields.length;
    const seq = this.nextSeq++;
    this.writer.put(seq, { seq, event, fields, bytes });
    this.count++;
    this.bytes += bytes;
    if (this.count > this.retention.count * 1.1 || this.bytes > this.retention.bytes * 1.1) this.trim();
  }

  /** The newest lines (oldest first), of one run when asked, older than `before` when paging back. */
  query(q: LogQuery): LogFeedEvent[] {
    this.writer.flush();
    const before = Number.isFinite(q?.before) ? Number(q.before) : Number.MAX_SAFE_INTEGER;
    const limit = Math.max(1, Math.min(MAX_LINES, Math.floor(Number(q?.limit) || 1_000)));
    const runId = typeof q?.runId === 'string' && q.runId !== '' ? q.runId : undefined;
    const rows = (runId
      ? this.selectRun.all(before, `%"runId":${JSON.stringify(runId).replace(/[\\%_]/g, (c) => `\\${c}`)}%`, limit)
      : this.select.all(before, limit)) as Array<{ at: number; integration: string | null; level: LogFeedEvent['log']['level']; msg: string; fields: string; seq: number }>;
    const out: LogFeedEvent[] = [];
    for (let i = rows.length - 1; i >= 0; i--) {
      const r = rows[i];
      let fields: Record<string, unknown>;
      try {
        fields = JSON.parse(r.fields) as Record<string, unknown>;
      } catch {
        fields = {};
      }
      if (runId !== undefined && fields.runId !== runId) continue;
      const event: LogFeedEvent = { kind: 'log', at: r.at, seq: r.seq, log: { time: new Date(r.at).toISOString(), level: r.level, msg: r.msg, fields } };
      if (r.integration !== null) event.integration = r.integration;
      out.push(event);
    }
    return out;
  }

  setRetention(retention: Retention): void {
    this.retention = retention;
    if (this.count > retention.count || this.bytes > retention.bytes) this.trim();
  }

  clear(): void {
    this.writer.clear();
    this.count = 0;
    this.bytes = 0;
  }

  flush(): void {
    this.writer.flush();
  }

  /** Drops the oldest lines until both bounds hold again. */
  private trim(): void {
    this.writer.flush();
    const { count, bytes } = this.retention;
    const byCount = this.db.prepare('SELECT seq FROM logs ORDER BY seq DESC LIMIT 1 OFFSET ?').get(count) as { seq: number } | undefined;
    const byBytes = this.db
      .prepare('SELECT seq FROM (SELECT seq, SUM(bytes) OVER (ORDER BY seq DESC) AS total FROM logs) WHERE total > ? ORDER BY seq DESC LIMIT 1')
      .get(bytes) as { seq: number } | undefined;
    const cut = Math.max(byCount?.seq ?? 0, byBytes?.seq ?? 0);
    if (cut === 0) return;
    this.db.prepare('DELETE FROM logs WHERE seq <= ?').run(cut);
    const totals = this.db.prepare('SELECT COUNT(*) AS count, COALESCE(SUM(bytes), 0) AS bytes FROM logs').get() as { count: number; bytes: number };
    this.count = totals.count;
    this.bytes = totals.bytes;
  }
}
