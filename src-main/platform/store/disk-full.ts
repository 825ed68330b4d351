/**
 * A write refused because the disk (or SQLite's page limit) is full: SQLITE_FULL, whose text is
 * "database or disk is full", or the OS's ENOSPC. Said as is, it names no folder and no way out;
 * `diskFullError` names the data folder and what to do. The telemetry writer's thread hands back
 * only the text, hence the match on it too.
 */
export function isDiskFull(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || err.message.includes('database or disk is full');
}

/** What a user reads for a full disk under `dataDir`: where, and what to do; `err`'s own text kept last. */
export function diskFullMessage(dataDir: string, err: unknown): string {
  const cause = err instanceof Error ? err.message : String(err);
  return `the disk holding the data folder ${dataDir} is full (${cause}): free space on it, or start again with --data-dir on a disk with room`;
}

/** A full disk, said with the data folder and what to do. */
export class DiskFullError extends Error {
  constructor(dataDir: string, err: unknown) {
    super(diskFullMessage(dataDir, err), { cause: err });
    // One line where it is logged: the message says where it happened, a stack would not help.
    this.stack = this.message;
  }
}

/** `err` as an error naming the data folder when it is a full disk (said once); otherwise `err` itself. */
export function diskFullError(dataDir: string, err: unknown): unknown {
  return err instanceof DiskFullError || !isDiskFull(err) ? err : new DiskFullError(dataDir, err);
}
