import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Who may talk to the web studio. It listens on 127.0.0.1 only, but a web page elsewhere could
 * still reach it through DNS rebinding (a name that resolves to 127.0.0.1) or a forged request;
 * so every request must name a loopback host with our port, and carry the per-launch session
 * token, first in the printed URL and then in a cookie the browser keeps for this origin only.
 */
export interface WebTrust {
  port: number;
  /** In the printed URL; new on every launch. */
  token: string;
  /** The cookie's value once the token was traded; the token itself unless a kept key is given. */
  session: string;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export function hostAllowed(host: string | undefined, port: number): boolean {
  if (!host) return false;
  return LOOPBACK_NAMES.some((name) => host.toLowerCase() === `${name}:${port}`);
}

/** Browsers send Origin on cross-site requests and on every WebSocket; it must be ours. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return LOOPBACK_NAMES.some((name) => origin.toLowerCase() === `http://${name}:${port}`);
}

/** Cookies are shared across ports of a host; the port in the name keeps two studios apart. */
export function sessionCookieName(port: number): string {
  return `flow_studio_session_${port}`;
}

export function sessionCookie(trust: WebTrust): string {
  return `${sessionCookieName(trust.port)}=${trust.session}; Path=/; HttpOnly; SameSite=Strict`;
}

export function tokenMatches(candidate: string | undefined | null, token: string): boolean {
  if (!candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function hasSession(req: IncomingMessage, trust: WebTrust): boolean {
  const name = sessionCookieName(trust.port);
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name && tokenMatches(part.slice(eq + 1).trim(), trust.session)) return true;
  }
  return false;
}

/** Why a request is refused, or undefined when it may proceed (session checked separately). */
export function refusal(req: IncomingMessage, trust: WebTrust): { status: number; message: string } | undefined {
  if (!hostAllowed(req.headers.host, trust.port)) {
    return { status: 403, message: `Flow Studio answers only to http://127.0.0.1:${trust.port} or http://localhost:${trust.port}; this request named the host "${req.headers.host ?? ''}".` };
  }
  const origin = req.headers.origin;
  if (!originAllowed(typeof origin === 'string' ? origin : undefined, trust.port)) {
    return { status: 403, message: `requests from ${String(origin)} are not allowed; open the studio from the URL that flow-studio serve printed.` };
  }
  return undefined;
}

export const missingSessionMessage =
  'This Flow Studio needs its session token. Open the full URL that `flow-studio serve` printed (it ends with ?token=…); the token changes on every launch.';
