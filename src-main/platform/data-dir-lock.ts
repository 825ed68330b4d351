import Database from 'better-sqlite3';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { diskFullError, isDiskFull } from './store/disk-full.ts';

/**
 * The file whose lock says "a Flow Studio process uses this data folder": a studio (its embedded
 * platform keeps its state there), `flow-studio platform` or `flow-studio run` with its embedded
 * platform. Their SQLite store assumes it is the file's only writer: a KV read cache only its own
 * writes invalidate; object versions, fencing tokens and topic message ids counted in memory
 * (MetaCounter, lastMessageId), so two processes would issue the same ones; opening the store
 * deletes pending request-reply messages (their requester died with the previous process); queue
 * groups and long-poll wakeups live in the process. Two processes on one folder would break leases,
 * compare-and-set and request-reply, not merely slow each other down.
 * It is an empty SQLite database held in an open `BEGIN EXCLUSIVE` transaction: SQLite takes an
 * OS lock on it (fcntl on POSIX, LockFileEx on Windows) that the kernel drops when the process
 * ends, however it ends, so a process killed with SIGKILL leaves nothing that blocks the next
 * start, and a reused pid cannot fake a holder. SQLite also keeps the lock within one process,
 * so two backends in one process refuse too. The name predates the platform's use of it.
 */
export const DATA_DIR_LOCK_FILE = 'studio.lock';
/** Who holds the lock, for the message a second process prints; the lock itself cannot be read. */
export const DATA_DIR_HOLDER_FILE = 'studio.lock.json';

/** What holds a data folder: the studio in a browser or the desktop app, or a headless command. */
export type DataDirShell = 'web' | 'electron' | 'platform' | 'run' | 'debug' | 'server';

/** The process holding a data folder, as it wrote itself down. */
export interface DataDirHolder {
  pid: number;
  /** ISO time the holder took the lock. */
  since: string;
  /** A DataDirShell; a holder of a later version may write another word. */
  shell: string;
  /** The studio's page or the platform's address (origin only: no token goes into files), once it listens. */
  url?: string;
  /** The file the holder's clients read its bearer token from, when it keeps one (`flow-studio platform`). */
  tokenFile?: string;
  /** The holder asks its clients for no token at all (`flow-studio platform --no-token`). */
  noToken?: true;
}

/** A data folder this process uses alone until `release()`. */
export interface DataDirLock {
  readonly dataDir: string;
  /**
   * Adds the holder's address (a studio's page, a platform's URL) and how its clients authenticate
   * (the file holding its token; false: no token at all) to what a second process on this folder is told.
   */
  announce(url: string, tokenFile?: string | false): void;
  /** Idempotent; also happens when the process ends. */
  release(): void;
}

/** A second process on a data folder in use: names the folder, what holds it, and what to do instead. */
export class DataDirInUseError extends Error {
  readonly code = 'FLOW_STUDIO_DATA_DIR_IN_USE';
  constructor(
    readonly dataDir: string,
    readonly holder: DataDirHolder | undefined,
    instead: string | ((holder: DataDirHolder | undefined) => string) = STUDIO_INSTEAD,
  ) {
    super(inUseMessage(dataDir, holder, typeof instead === 'string' ? instead : instead(holder)));
    this.name = 'DataDirInUseError';
  }
}

/** What a second studio is told to do instead. */
const STUDIO_INSTEAD = 'to run a second studio, give it a data folder of its own: flow-studio serve --data-dir <another folder>';

export interface LockDataDirOptions {
  /** How long a holder that has not written its note yet is waited for. */
  holderWaitMs?: number;
  /** The refusal's last words: what the one refused can do instead (a studio's by default), maybe knowing the holder. */
  instead?: string | ((holder: DataDirHolder | undefined) => string);
}

/**
 * Creates the data folder, or refuses it naming the folder and why: a recursive mkdir under a
 * read-only mount says ENOENT, and SQLite's own "unable to open database file" names nothing.
 */
function makeWritable(dataDir: string, shell: DataDirShell): void {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK);
  } catch (err) {
    let existing = dataDir;
    while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
    let reason = err instanceof Error ? err.message : String(err);
    try {
      accessSync(existing, constants.W_OK);
    } catch (denied) {
      reason = (denied as Error).message;
    }
    // The desktop app has no --data-dir; every command line does.
    throw new Error(`the data folder ${dataDir} cannot be written (${reason})${shell === 'electron' ? '' : '; give a folder this process can write with --data-dir'}`);
  }
}

/**
 * Takes the data folder for this process, before anything in it is opened; throws
 * DataDirInUseError when another (in any process) holds it.
 */
export async function lockDataDir(dataDir: string, shell: DataDirShell, options: LockDataDirOptions = {}): Promise<DataDirLock> {
  try {
    return await takeLock(dataDir, shell, options);
  } catch (err) {
    // A full disk is said with the folder and what to do (a bare ENOSPC or SQLITE_FULL names neither).
    throw diskFullError(dataDir, err);
  }
}

async function takeLock(dataDir: string, shell: DataDirShell, options: LockDataDirOptions): Promise<DataDirLock> {
  makeWritable(dataDir, shell);
  const lockPath = join(dataDir, DATA_DIR_LOCK_FILE);
  const holderPath = join(dataDir, DATA_DIR_HOLDER_FILE);
  const db = new Database(lockPath, { timeout: 0 });
  try {
    // Nothing is ever written, so the journal may stay in memory: no studio.lock-journal file.
    // On a held lock this pragma already answers SQLITE_BUSY.
    db.pragma('journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirInUseError(dataDir, await holderOf(holderPath, options.holderWaitMs ?? 2_000), options.instead);
    if (isDiskFull(err)) throw err;
    throw new Error(`could not lock the data folder ${dataDir} (${lockPath}): ${err instanceof Error ? err.message : String(err)}`);
  }
  const holder: DataDirHolder = { pid: process.pid, since: new Date().toISOString(), shell };
  writeHolder(holderPath, holder);
  let released = false;
  // The connection must stay reachable (release() holds it): a collected one closes, and its lock goes with it.
  return {
    dataDir,
    announce(url, tokenFile) {
      if (released) return;
      holder.url = new URL(url).origin;
      if (tokenFile === false) holder.noToken = true;
      else if (tokenFile !== undefined) holder.tokenFile = tokenFile;
      writeHolder(holderPath, holder);
    },
    release() {
      if (released) return;
      released = true;
      // The note goes first: once the lock is free, a new holder writes its own.
      rmSync(holderPath, { force: true });
      db.close();
    },
  };
}

/** Written whole (a temp file renamed over it), so a reader never sees half of it. */
function writeHolder(path: string, holder: DataDirHolder): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(holder) + '\n');
  renameSync(temp, path);
}

/**
 * The holder's note. A studio that just took the lock may not have written it yet (what is there
 * then is a dead studio's, or nothing), so a note naming no live process is read again for a while.
 */
async function holderOf(path: string, waitMs: number): Promise<DataDirHolder | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const holder = readHolder(path);
    if (holder && isAlive(holder.pid)) return holder;
    if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function readHolder(path: string): DataDirHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<DataDirHolder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.since !== 'string' || typeof parsed.shell !== 'string') return undefined;
    return {
      pid: parsed.pid,
      since: parsed.since,
      shell: parsed.shell,
      ...(typeof parsed.url === 'string' ? { url: parsed.url } : {}),
      ...(typeof parsed.tokenFile === 'string' ? { tokenFile: parsed.tokenFile } : {}),
      ...(parsed.noToken === true ? { noToken: true as const } : {}),
    };
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as { code?: string }).code === 'EPERM';
  }
}

const HOLDER_NAMES: Record<string, string> = { web: 'flow-studio serve', electron: 'the desktop app', platform: 'flow-studio platform', run: 'flow-studio run', debug: 'flow-studio debug', server: 'a platform server' };

function inUseMessage(dataDir: string, holder: DataDirHolder | undefined, instead: string): string {
  const name = holder ? (HOLDER_NAMES[holder.shell] ?? holder.shell) : undefined;
  const who = holder ? `Flow Studio (pid ${holder.pid}${holder.url ? `, at ${holder.url}` : ''}, ${name} since ${holder.since})` : 'another Flow Studio';
  return (
    `the data folder ${dataDir} is in use by ${who}. ` +
    `Use that one or stop it${holder ? (holder.shell === 'electron' ? ' (quit the app)' : ` (Ctrl+C in its terminal, or kill ${holder.pid})`) : ''}; ` +
    instead
  );
}
