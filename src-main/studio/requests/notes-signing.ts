import { parse } from 'yaml';
import type { SignatureResult } from '../../../shared/request-types.ts';
import { type LogRecord, type LogSink, NotesConnector, type Runtime, type SecretRedactor, signWebhook } from '../../runtime/index.ts';

const VERIFY_BLOCK = 'notes-verify-request';
const DEFAULT_SIGNATURE_HEADER = 'X-Notes-Signature';

/** What a flow's notes-verify-request step names: its connector and the header it reads. */
export interface VerifyStep {
  connector: string;
  signatureHeader: string;
}

/**
 * The notes-verify-request step of a flow, read from its definition texts, or undefined when the
 * flow verifies nothing. Steps nested in switch cases and error chains count too.
 */
export function verifyStepOf(texts: ReadonlyArray<{ text: string }>, flow: string): VerifyStep | undefined {
  for (const { text } of texts) {
    let doc: unknown;
    try {
      doc = parse(text);
    } catch {
      continue;
    }
    const flowDef = (doc as { flows?: Record<string, unknown> } | null)?.flows?.[flow];
    const found = flowDef ? findVerify(flowDef) : undefined;
    if (found) return found;
  }
  return undefined;
}

function findVerify(node: unknown, depth = 0): VerifyStep | undefined {
  if (depth > 12 || node === null || typeof node !== 'object') return undefined;
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findVerify(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const settings = (node as Record<string, unknown>)[VERIFY_BLOCK];
  if (settings && typeof settings === 'object') {
    const s = settings as { connector?: unknown; signatureHeader?: unknown };
    if (typeof s.connector === 'string') {
      return { connector: s.connector, signatureHeader: typeof s.signatureHeader === 'string' ? s.signatureHeader : DEFAULT_SIGNATURE_HEADER };
    }
  }
  for (const value of Object.values(node)) {
    const found = findVerify(value, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Signs a body as the notes service would (`sha256=<HMAC of the exact bytes>`), with the token
 * the running connector knows. Only the signature leaves this function, never the token.
 */
export function signForRoute(runtime: Runtime | undefined, step: VerifyStep | undefined, body: Uint8Array | string): SignatureResult {
  if (!step) return { ok: false, reason: 'this flow has no notes-verify-request step, so there is nothing to sign for' };
  if (!runtime) return { ok: false, reason: 'the integration is not running; run it so its notes connector is there' };
  const connector = runtime.definition.connectors.find((c) => c.name === step.connector)?.instance;
  if (!(connector instanceof NotesConnector)) return { ok: false, reason: `connector "${step.connector}" is not a notes connector of the running integration` };
  const token = connector.verificationToken;
  if (token === undefined) {
    return {
      ok: false,
      reason: `no verification token is known yet: connector "${step.connector}" has no verificationToken configured and no handshake was captured; send the handshake {"verification_token": "…"} unsigned first`,
    };
  }
  return { ok: true, header: step.signatureHeader, value: signWebhook(body, token) };
}

/**
 * A log sink wrapper for the studio: a notes connector logs the handshake token it captured (so
 * an operator can copy it from a server's log). In the studio the signature helper does that
 * job, so the token is masked here and added to the runtime's redactor, which then masks it in
 * traces, logs and captured requests shown to the window.
 */
export function maskCapturedTokens(sink: LogSink, redactor: SecretRedactor): LogSink {
  return (record: LogRecord) => {
    const token = (record as { verificationToken?: unknown }).verificationToken;
    if (typeof token !== 'string' || token === '') return sink(record);
    redactor.add(token);
    sink({ ...record, verificationToken: '[redacted]' } as LogRecord);
  };
}
