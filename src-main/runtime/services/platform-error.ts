/** Spec 1 §7: the runtime quotes the first 512 bytes of an error body in its own error. */
export const QUOTED_BODY_BYTES = 512;

/**
 * A platform call that answered a status the caller did not expect. The message names the route
 * and quotes the server's error body so a person can debug the server from the runtime's log.
 */
export class PlatformError extends Error {
  readonly status: number;
  /** `error.code` of the body, advisory (spec 1 §7). */
  readonly code: string | undefined;

  constructor(route: string, status: number, body: Uint8Array, what?: string) {
    const { quoted, code } = quoteErrorBody(body);
    super(`${what ? `${what}: ` : ''}platform ${route} answered ${status}${quoted ? `: ${quoted}` : ''}`);
    this.name = 'PlatformError';
    this.status = status;
    this.code = code;
  }
}

/** A platform that could not be reached at all (refused, reset, timed out). */
export class PlatformUnreachableError extends Error {
  constructor(route: string, cause: unknown) {
    super(`platform ${route} could not be reached: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'PlatformUnreachableError';
  }
}

/** A version conflict (409) on a versioned write; the flow decides whether to re-read and retry. */
export class VersionConflictError extends Error {
  readonly status = 409;
  constructor(message: string) {
    super(message);
    this.name = 'VersionConflictError';
  }
}

function quoteErrorBody(body: Uint8Array): { quoted: string; code: string | undefined } {
  if (body.length === 0) return { quoted: '', code: undefined };
  const head = Buffer.from(body.subarray(0, QUOTED_BODY_BYTES)).toString('utf8').replace(/\uFFFD+$/, '');
  return { quoted: head + (body.length > QUOTED_BODY_BYTES ? '…' : ''), code: errorCode(body) };
}

function errorCode(body: Uint8Array): string | undefined {
  // A huge body is not worth parsing for an advisory code.
  if (body.length > 65_536) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(body).toString('utf8')) as { error?: { code?: unknown } };
    return typeof parsed.error?.code === 'string' ? parsed.error.code : undefined;
  } catch {
    return undefined;
  }
}
