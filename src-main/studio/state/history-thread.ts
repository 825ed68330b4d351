import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { workerStart } from '../../../shared/ts-worker-boot.ts';
import type { StudioDb } from './studio-db.ts';

/** One transaction of one kind of history, as a HistoryWriter makes it. */
export interface HistoryBatch {
  /** The writer it comes from: a failed write is reported to it. */
  writer: string;
  /** Statements run first, in order: a clear, a retention's deletes. */
  before: HistoryStatement[];
  /** The statement each row is written with. */
  upsert: string;
  /** Each row's parameters for `upsert`. */
  rows: unknown[][];
}

/** A statement with its parameters (positional, or one object of named ones). */
export interface HistoryStatement {
  sql: string;
  params: unknown[];
}

export type HistoryThreadRequest = ({ op: 'write' } & HistoryBatch) | { op: 'sync' | 'close'; seq: number };
/** The thread answers only a failed write; a sync is answered through the shared counter. */
export type HistoryThreadReply = { writer: string; error: string };

/**
 * Items in one flush (runs, captures, log lines) from which writing moves to the history thread:
 * at a flush every quarter second, 200 items is 800 a second, where the transaction is
 * milliseconds of the request thread each time (a kind kept as batches writes them as one row,
 * a table kind as one row each). Below it a write is a fraction of a millisecond, and a studio
 * that runs a few requests keeps the 10-odd MB and the start-up CPU of a thread with SQLite in it.
 */
export const HISTORY_THREAD_AFTER_ITEMS = 200;
/** How long a flush waits for the thread to write what it was given. */
const SYNC_TIMEOUT_MS = 10_000;

/**
 * The studio's history thread: writes the batches of every HistoryWriter of one studio.db on a
 * connection of its own, in the order they were handed over, so the transactions (SQLite's
 * inserts, a retention's deletes) no longer run between the requests of the studio's runs.
 * A flush waits for it synchronously (Atomics.wait on a shared counter the thread moves after
 * each sync request), so what is flushed is in the file, as when the writer wrote it itself. A
 * failed write is reported to its writer and lost; a thread that dies hands writing back to the
 * writers' own connection, telling each writer what it lost.
 */
export class HistoryThread {
  private readonly worker: Worker;
  /** [0]: the last sync request the thread has answered. */
  private readonly reached: Int32Array;
  private seq = 0;
  private gone: Error | undefined;
  /** Each writer's error report: a failed batch is told to its own writer. */
  private readonly onError = new Map<string, (err: unknown) => void>();

  constructor(file: string) {
    const shared = new SharedArrayBuffer(4);
    this.reached = new Int32Array(shared);
    const source = new URL('./history-thread-worker.ts', import.meta.url);
    const { target, options } = workerStart(
      source,
      new URL('../../../dist-electron/history-thread-worker.js', import.meta.url),
      { sourceExists: existsSync(fileURLToPath(source)), tsxPackage: () => createRequire(import.meta.url).resolve('tsx/package.json') },
      { file, reached: shared },
    );
    this.worker = new Worker(target, options);
    this.worker.on('message', (m: HistoryThreadReply) => this.onError.get(m.writer)?.(new Error(m.error)));
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`the studio's history thread exited with ${code}`)));
    // A stopping studio flushes (and so waits for the thread) first; nothing else keeps it alive.
    // After the listeners: adding a 'message' listener refs the worker's port again.
    this.worker.unref();
  }

  get available(): boolean {
    return this.gone === undefined;
  }

  /** Hands a batch over; false when the thread is gone (the caller writes it itself). */
  write(batch: HistoryBatch, onError: (err: unknown) => void): boolean {
    if (this.gone) return false;
    this.onError.set(batch.writer, onError);
    const request: HistoryThreadRequest = { op: 'write', ...batch };
    this.worker.postMessage(request);
    return true;
  }

  /** Returns once everything handed over before is in the file (or the thread is gone, or 10 s passed). */
  sync(): void {
    this.ask('sync');
  }

  /** Writes what was handed over, closes the thread's connection and ends the thread. */
  close(): void {
    this.ask('close');
    this.gone ??= new Error('closed');
  }

  private ask(op: 'sync' | 'close'): void {
    if (this.gone) return;
    const seq = ++this.seq;
    const request: HistoryThreadRequest = { op, seq };
    this.worker.postMessage(request);
    const deadline = Date.now() + SYNC_TIMEOUT_MS;
    for (let at = Atomics.load(this.reached, 0); at < seq; at = Atomics.load(this.reached, 0)) {
      const left = deadline - Date.now();
      if (left <= 0 || Atomics.wait(this.reached, 0, at, left) === 'timed-out') {
        this.fail(new Error(`the studio's history thread did not answer in ${SYNC_TIMEOUT_MS / 1000} s`));
        void this.worker.terminate();
        return;
      }
    }
  }

  private fail(err: Error): void {
    if (this.gone) return;
    this.gone = err;
    for (const report of this.onError.values()) report(new Error(`${err.message}; history handed to it since its last write may be lost`));
  }
}

const threads = new WeakMap<StudioDb, HistoryThread | 'closed'>();

/**
 * The history thread of `db`, when it runs: started by the first flush of HISTORY_THREAD_AFTER_ITEMS
 * items or more (`items`), never for an in-memory database or after closeHistoryThread.
 */
export function historyThreadOf(db: StudioDb, items = 0): HistoryThread | undefined {
  const thread = threads.get(db);
  if (thread === 'closed') return undefined;
  if (thread) return thread.available ? thread : undefined;
  if (items < HISTORY_THREAD_AFTER_ITEMS) return undefined;
  return startHistoryThread(db);
}

/** Starts the history thread of `db` now (the first large batch does otherwise). */
export function startHistoryThread(db: StudioDb): HistoryThread | undefined {
  const thread = threads.get(db);
  if (thread !== undefined) return thread === 'closed' ? undefined : thread;
  if (db.memory || !db.open) return undefined;
  const started = new HistoryThread(db.name);
  threads.set(db, started);
  return started;
}

/** Writes what the thread of `db` was handed and ends it; later batches are written on the caller's connection. */
export function closeHistoryThread(db: StudioDb): void {
  const thread = threads.get(db);
  threads.set(db, 'closed');
  if (thread instanceof HistoryThread) thread.close();
}
