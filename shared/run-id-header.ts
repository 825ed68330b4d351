/**
 * Names the run a delegation call is made for (`X-Flow-Run-Id`, lower-cased as Node sees it).
 * Not part of the delegation contract: the runtime sends it on the calls a flow step makes (KV
 * writes, a lock's lease), a platform may record it to tie what it saw to the run that did it
 * (the studio's embedded platform does), and any other server ignores it.
 */
export const RUN_ID_HEADER = 'x-flow-run-id';

/** The longest run id a platform records; anything longer, or not printable ASCII, is ignored. */
export const MAX_RUN_ID_LENGTH = 128;

/** The run id a request names, or undefined when it names none or a malformed one. */
export function runIdFromHeader(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v || v.length > MAX_RUN_ID_LENGTH || !/^[\x21-\x7e]+$/.test(v)) return undefined;
  return v;
}
