import type { IncomingMessage } from 'node:http';
import { badRequest } from '../http/api-error.ts';

const BASE64URL_UNPADDED = /^[A-Za-z0-9_-]+$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Checks `X-Flow-Agent-Context` (§5.4): absent is ignored; present, it must be base64url
 * without padding of a JSON object of string values, or the request is refused with 400.
 * The header is a credential: it is never logged, stored, or quoted in an error.
 */
export function checkAgentContext(req: IncomingMessage): void {
  const raw = req.headers['x-flow-agent-context'];
  if (raw === undefined) return;
  if (Array.isArray(raw) || !readable(raw)) {
    throw badRequest(
      'invalid_agent_context',
      'X-Flow-Agent-Context is present but unreadable: it must be base64url without padding of a compact JSON object mapping strings to strings (its value is not repeated here)',
    );
  }
}

function readable(value: string): boolean {
  if (!BASE64URL_UNPADDED.test(value) || value.length % 4 === 1) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8.decode(Buffer.from(value, 'base64url')));
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  return Object.values(parsed).every((v) => typeof v === 'string');
}
