/**
 * Versions of versioned objects (KV entries, working memory, curated memories), §3.5: every write
 * takes the next value of one counter that never goes backwards, even across deletes and
 * restarts, so a version is never issued twice: a writer holding a version read before a
 * delete-and-recreate gets 409 instead of overwriting the new object (no ABA).
 */
export type WriteOutcome = { ok: true; version: number; created: boolean } | { ok: false; conflict: string };
export type DeleteOutcome = { ok: true; deleted: boolean } | { ok: false; conflict: string };

/**
 * Why a write with `expected` (X-Object-Version) may not proceed against an object at
 * `current` (undefined when absent), or undefined when it may. §3.5: 0 creates and fails if the
 * object exists; a positive value must equal the stored version.
 */
export function writeConflict(expected: number, current: number | undefined): string | undefined {
  if (expected === 0) {
    return current === undefined ? undefined : `it already exists at version ${current}; send X-Object-Version: ${current} to replace it`;
  }
  if (current === undefined) return `it does not exist (you sent X-Object-Version: ${expected}); send X-Object-Version: 0 to create it`;
  if (current !== expected) return `it is at version ${current}, not ${expected}; read it again and retry with the current version`;
  return undefined;
}

/** Like writeConflict for DELETE: 0 deletes unconditionally; absence is not a conflict (404 is success). */
export function deleteConflict(expected: number, current: number): string | undefined {
  if (expected === 0 || expected === current) return undefined;
  return `it is at version ${current}, not ${expected}; read it again, or delete without X-Object-Version to delete unconditionally`;
}
