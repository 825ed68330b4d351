/**
 * JSON parsing with a nesting limit, shared by every HTTP surface that parses a request body:
 * the platform server's routes and the runtime's `http` route source.
 *
 * JSON.parse itself copes with any depth, but everything after it (serialising, CEL, redaction,
 * the turns and memories a store re-serialises) recurses, and about 5,000 levels — a 10 KB body —
 * overflow the stack as a 500. So a body nested deeper than MAX_JSON_DEPTH is refused up front.
 */

/** Deepest nesting of arrays and objects a request body may have (a scalar at the top is depth 0, `[]` is 1). */
export const MAX_JSON_DEPTH = 128;

/** The body nests arrays/objects deeper than the limit; answered 400 `json_too_deep`. */
export class JsonTooDeepError extends Error {
  constructor(
    readonly limit: number,
    /** Character offset of the bracket that passed the limit. */
    readonly at: number,
  ) {
    super(`it nests arrays and objects deeper than ${limit} levels (passed at character ${at})`);
    this.name = 'JsonTooDeepError';
  }
}

/**
 * JSON.parse after a linear scan that counts bracket depth outside strings. Throws
 * JsonTooDeepError past `maxDepth`, and JSON.parse's SyntaxError for malformed text.
 */
export function parseBoundedJson(text: string, maxDepth: number = MAX_JSON_DEPTH): unknown {
  // Passing the limit takes more brackets than a text this short has: most bodies skip the scan.
  if (text.length > maxDepth) checkJsonDepth(text, maxDepth);
  return JSON.parse(text);
}

/** Throws JsonTooDeepError when `text` nests deeper than `maxDepth`; cheap enough for every body. */
export function checkJsonDepth(text: string, maxDepth: number = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > maxDepth) throw new JsonTooDeepError(maxDepth, i);
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
}
