import type { VerificationNote } from '../../../shared/request-types.ts';
import type { HttpExchangeRecord } from '../../runtime/index.ts';
import { newestLines } from '../state/history-batches.ts';
import { HistoryWriter } from '../state/history-writer.ts';
import type { StudioDb } from '../state/studio-db.ts';
import type { CapturedExchange, CaptureKeeper } from './capture-store.ts';

const KIND = 'captures';

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
    this.writer = new HistoryWriter<CapturedExchange>(db, { kind: KIND, line: lineOf }, onError);
  }

  /** The newest `limit` captures on disk, oldest first, ready for the store. */
  load(limit: number): Array<Omit<CapturedExchange, 'searchable'>> {
    const out: Array<Omit<CapturedExchange, 'searchable'>> = [];
    for (const { key, meta } of newestLines(this.db, KIND, limit)) {
      let integration: string;
      let stored: StoredCapture;
      try {
        [integration, stored] = JSON.parse(meta) as [string, StoredCapture];
      } catch {
        continue;
      }
      const { requestBody, responseBody, ...rest } = stored.record;
      const record: HttpExchangeRecord = { ...rest, responseBody: Buffer.from(responseBody, 'base64') };
      if (requestBody !== undefined) record.requestBody = Buffer.from(requestBody, 'base64');
      const capture: Omit<CapturedExchange, 'searchable'> = { id: key, integration, record, redact: (t) => t };
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

/** The capture's line: its integration and the stored record. No closure per capture: a line is made for every request of a studio run. */
function lineOf(c: CapturedExchange): { meta: string } {
  const r = c.record;
  const redact = c.redact;
  const target = redact(r.target);
  const requestHeaders = maskedPairs(r.requestHeaders, redact);
  const responseHeaders = maskedPairs(r.responseHeaders, redact);
  const requestBody = r.requestBody ? storedBody(r.requestBody, redact) : undefined;
  const responseBody = storedBody(r.responseBody, redact);
  const masked =
    c.masked === true ||
    target !== r.target ||
    requestHeaders !== r.requestHeaders ||
    responseHeaders !== r.responseHeaders ||
    requestBody?.masked === true ||
    responseBody.masked;
  const stored: StoredCapture = {
    record: {
      ...r,
      target,
      requestHeaders,
      responseHeaders,
      requestBody: requestBody?.base64,
      responseBody: responseBody.base64,
    },
  };
  if (c.verification) stored.verification = c.verification;
  if (masked) stored.masked = true;
  return { meta: `[${JSON.stringify(c.integration)},${JSON.stringify(stored)}]` };
}

/** The pairs with their values masked: the same array when no value held a secret. */
function maskedPairs(pairs: Array<[string, string]>, redact: (text: string) => string): Array<[string, string]> {
  let out: Array<[string, string]> | undefined;
  for (let i = 0; i < pairs.length; i++) {
    const [name, value] = pairs[i];
    const shown = redact(value);
    if (shown !== value) (out ??= pairs.slice())[i] = [name, shown];
  }
  return out ?? pairs;
}

/** A body in base64, with the secret values of its text masked (binary bytes are kept as they are: masking would corrupt them). */
function storedBody(bytes: Uint8Array, redact: (text: string) => string): { base64: string; masked: boolean } {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoded = buffer.toString('utf8');
  if (decoded.includes('\uFFFD')) return { base64: buffer.toString('base64'), masked: false };
  const shown = redact(decoded);
  return shown === decoded ? { base64: buffer.toString('base64'), masked: false } : { base64: Buffer.from(shown, 'utf8').toString('base64'), masked: true };
}
