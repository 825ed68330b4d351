import { badRequest } from '../http/api-error.ts';

/** Helpers for text the platform stored as it came: message headers and bodies kept as JSON text. */

/** Stored headers (JSON text of a string map, or null) as a map; anything unreadable is an empty map. */
export function parseHeaders(text: string | null): Record<string, string> {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** A stored body as inspection returns it: its text cut to a preview, its full size, and whether the cut hid some of it. */
export interface StoredText {
  body: string;
  bodyBytes: number;
  truncated: boolean;
}

/** A stored body cut by SQL to a preview, as StoredText. */
export function previewText(body: string, bodyBytes: number): StoredText {
  return { body, bodyBytes, truncated: Buffer.byteLength(body) < bodyBytes };
}

/**
 * Refuses an empty name with a message saying what it is for: a 400 of the platform's own kind,
 * which the studio shows as the person's mistake rather than as an internal error.
 */
export function requireName(value: string, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw badRequest('invalid_name', `${what} is empty; give one`);
  return value;
}
