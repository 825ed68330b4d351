import { implementBlock } from '../../../core/component.ts';
import { FlowError } from '../../../core/errors.ts';
import { isRawContent, type Message } from '../../../core/message.ts';
import { rejectRequest } from '../../../core/rejection.ts';
import type { NotesConnector } from '../notes-connector.ts';
import { handshakeToken, isValidWebhookSignature } from '../webhook-signature.ts';
import { notesVerifyRequestDef } from './notes-verify-request.def.ts';

interface RawRequest {
  bytes: Uint8Array | string;
  /** The body itself is the raw content (`rawBody: true`) and is parsed back once verified. */
  inBody: boolean;
}

export const notesVerifyRequest = implementBlock(notesVerifyRequestDef, (s, ctx) => {
  const connector = ctx.connector<NotesConnector>(s.connector);
  return {
    process(msg) {
      const raw = rawRequestOf(msg, s.rawBodyVar);
      if (!raw) {
        throw new FlowError(`notes-verify-request needs the exact request bytes: give the http source rawBody: true, or rawBodyVar: ${s.rawBodyVar}`);
      }
      const signature = variable(msg, s.signatureHeader);
      const token = connector.verificationToken;
      if (token === undefined) {
        const handshake = signature === undefined ? handshakeToken(raw.bytes) : undefined;
        // The check and the capture happen with no await between them, so one handshake wins.
        if (handshake === undefined || !connector.captureVerificationToken(handshake)) {
          return rejectRequest(msg, 401, 'notes webhook rejected: no verification token is known yet and this is not an unsigned subscription handshake');
        }
        msg.vars.notesVerification = { verificationToken: handshake, capturedAt: new Date().toISOString() };
        if (raw.inBody) msg.body = { verification_token: handshake };
        return msg;
      }
      if (signature === undefined) {
        const reason = handshakeToken(raw.bytes) !== undefined
          ? 'a verification token is already known, so a new handshake is refused; to rotate it, unset verificationToken and restart'
          : `unsigned request (no ${s.signatureHeader})`;
        return rejectRequest(msg, 401, `notes webhook rejected: ${reason}`);
      }
      if (!isValidWebhookSignature(raw.bytes, token, signature)) {
        return rejectRequest(msg, 401, `notes webhook rejected: ${s.signatureHeader} does not match the request body`);
      }
      if (raw.inBody) {
        const parsed = parseJson(raw.bytes);
        if (parsed === NOT_JSON) return rejectRequest(msg, 400, 'notes webhook rejected: the signed body is not JSON');
        msg.body = parsed;
      }
      return msg;
    },
  };
});

function rawRequestOf(msg: Message, rawBodyVar: string): RawRequest | undefined {
  if (isRawContent(msg.body)) return { bytes: msg.body.rawData, inBody: true };
  const v = msg.vars[rawBodyVar];
  if (typeof v === 'string' || v instanceof Uint8Array) return { bytes: v, inBody: false };
  return undefined;
}

/** A header copied by the http source; matched case-insensitively since header names are. */
function variable(msg: Message, name: string): string | undefined {
  let value = msg.vars[name];
  if (value === undefined) {
    const lower = name.toLowerCase();
    value = Object.entries(msg.vars).find(([k]) => k.toLowerCase() === lower)?.[1];
  }
  if (Array.isArray(value)) value = value[0];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

const NOT_JSON = Symbol('not JSON');

function parseJson(bytes: Uint8Array | string): unknown {
  const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}
