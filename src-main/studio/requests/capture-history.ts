import type { VerificationNote } from '../../../shared/request-types.ts';
import type { HttpExchangeRecord } from '../../runtime/index.ts';
import { HistoryWriter } from '../state/history-writer.ts';
import type { StudioDb } from '../state/studio-db.ts';
import type { CapturedExchange, CaptureKeeper } from './capture-store.ts';

/** A capture as written: the exchange with its bodies in base64, already masked. */
interface StoredCapture {
  record: Omit<HttpExchangeRecord, 'requestBody' | 'responseBody'> & { requestBody?: string; responseBody: string };
  verification?: VerificationNote;
  /** A secret value was masked in it: its bytes are no longer the exact bytes that came. */
  masked?: boolean;
}

/**
 * Captured requests in studio.db, so a restart lists them again. What is written is what the
 * window was shown: the runtime's secret values (and a captured handshake token) masked in the
 * target, header values and text bodies, so no secret reaches the disk through a capture. A
 * capture that held one is marked: replaying it sends the masked bytes.
 */
export class CaptureHistory implements CaptureKeeper {
  private readonly writer: HistoryWriter<CapturedExchange>;

  constructor(
    private readonly db: StudioDb,
    onError: (err: unknown) => void = () => {},
  ) {
    const upsert = db.prepare(`INSERT INTO captures (id, integration, started_at, record, bytes) VALUES (@id, @integration, @startedAt, @record, @bytes)
      ON CONFLICT (id) DO UPDATE SET record = excluded.record`);
    this.writer = new HistoryWriter<CapturedExchange>(db, { table: 'captures', key: 'id', write: (c) => upsert.run(rowOf(c)) }, onError);
  }

  /** The newest `limit` captures on disk, oldest first, ready for the store. */
  load(limit: number): Array<Omit<CapturedExchange, 'searchable'>> {
    const rows = this.db.prepare('SELECT id, integration, record FROM captures ORDER BY id DESC LIMIT ?').all(limit) as Array<{ id: number; integration: string; record: string }>;
    const out: Array<Omit<CapturedExchange, 'searchable'>> = [];
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i];
      let stored: StoredCapture;
      try {
        stored = JSON.parse(row.record) as StoredCapture;
      } catch {
        continue;
      }
      const { requestBody, responseBody, ...rest } = stored.record;
      const record: HttpExchangeRecord = { ...rest, responseBody: Buffer.from(responseBody, 'base64') };
      if (requestBody !== undefined) record.requestBody = Buffer.from(requestBody, 'base64');
      const capture: Omit<CapturedExchange, 'searchable'> = { id: row.id, integration: row.integration, record, redact: (t) => t };
      if (stored.verification) capture.verification = stored.verification;
      if (stored.masked) capture.masked = true;
      out.push(capture);
    }
    return out;
  }

  kept(capture: CapturedExchange): void {
    this.writer.put(capture.id, capture);
  }

  forgotUpTo(id: number): void {
    this.writer.forget(id);
  }

  cleared(): void {
    this.writer.clear();
  }

  flush(): void {
    this.writer.flush();
  }
}

function rowOf(c: CapturedExchange): Record<string, unknown> {
  const r = c.record;
  let masked = c.masked ?? false;
  const text = (s: string): string => {
    const out = c.redact(s);
    if (out !== s) masked = true;
    return out;
  };
  const body = (b: Uint8Array | undefined): string | undefined => {
    if (!b) return undefined;
    const buffer = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    const decoded = buffer.toString('utf8');
    // Only text is searched for secret values: masking inside binary bytes would corrupt them.
    if (decoded.includes('\uFFFD')) return buffer.toString('base64');
    const shown = text(decoded);
    return shown === decoded ? buffer.toString('base64') : Buffer.from(shown, 'utf8').toString('base64');
  };
  const pairs = (list: Array<[string, string]>): Array<[string, string]> => list.map(([k, v]) => [k, text(v)]);
  const stored: StoredCapture = {
    record: {
      ...r,
      target: text(r.target),
      requestHeaders: pairs(r.requestHeaders),
      responseHeaders: pairs(r.responseHeaders),
      requestBody: body(r.requestBody),
      responseBody: body(r.responseBody) ?? '',
    },
  };
  if (c.verification) stored.verification = c.verification;
  if (masked) stored.masked = true;
  const json = JSON.stringify(stored);
  return { id: c.id, integration: c.integration, startedAt: Math.round(r.startedAt), record: json, bytes: json.length };
}
