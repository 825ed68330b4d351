import type { RunSummary } from '../../../shared/trace-types.ts';
import type { STEP_FIELDS } from '../../../shared/trace-record.ts';
import type { TraceRecord, TraceSpan } from '../../runtime/index.ts';

/** Characters of bodies, header values and vars a run keeps for search. */
export const SEARCH_TEXT_CHARS = 8 * 1024;

/**
 * One step as recorded: its path, and the record's step fields (STEP_FIELDS) with the message
 * before and after when snapshots were on, and its span (calls it made name it as their parent,
 * which places them under it).
 */
export type StoredStep = { step: string } & Pick<TraceRecord, (typeof STEP_FIELDS)[number]>;

export interface StoredDetail {
  steps: StoredStep[];
  calls: TraceSpan[];
  input?: unknown;
  output?: unknown;
  snapshots: boolean;
  bytes: number;
}

/** One stored run as the store holds it, and as a RunKeeper writes it to disk. */
export interface RunRecord {
  /** Its place in the store, oldest first; kept across restarts. */
  seq: number;
  summary: RunSummary;
  /**
   * What a text search looks through besides the summary: the request and response bodies,
   * header values and the message's vars, as text, cut at SEARCH_TEXT_CHARS.
   */
  searchText: string;
  /** Its steps' names, blocks and errors as one text: what a search looks through for its steps. */
  stepText?: string;
  /**
   * Steps and messages as the JSON text of a StoredDetail (without `bytes`), the text studio.db
   * stores: a run is serialized once and held as one string rather than an object graph per
   * message, which the collector copied on every young-generation collection until it left
   * memory. Parsed only when the run is opened. Dropped from memory for old runs (the summary
   * stays, the disk keeps it).
   */
  detailText?: string;
  /** Rough bytes it takes on disk, for the retention by bytes. */
  bytes: number;
  /**
   * Its first verification step (null: it had none), noted when it was recorded so a captured
   * request learns how its check went without reading the run's detail back. Absent on runs read
   * back from disk.
   */
  firstVerify?: VerifyStepNote | null;
  /** A verification step had the last word and its answer was not recorded: the request's status decides. */
  verifyStep?: { step: string; block: string };
}

/** What a captured request shows of its run's verification step. */
export interface VerifyStepNote {
  block: string;
  outcome: string;
  error?: string;
  /** The step recorded a subscription handshake's token (`vars.notesVerification` in its output). */
  handshake: boolean;
}

/** A run read back from disk: everything but its steps, which load when it is opened. */
export type RestoredRun = Pick<RunRecord, 'seq' | 'summary' | 'searchText' | 'stepText' | 'bytes'>;

/**
 * Where the store's runs outlive the process (studio.db). The store tells it what changed and
 * asks it for the steps of runs whose steps left memory.
 */
export interface RunKeeper {
  /** A run was added, or its summary changed (a linked request, a test's name). */
  kept(record: RunRecord): void;
  /** The runs up to `seq` left the store (retention). */
  forgotUpTo(seq: number): void;
  cleared(): void;
  /** Steps and messages of the run under `seq` whose detail is no longer in memory, as the JSON text it was stored as. */
  detailTextOf(seq: number): string | undefined;
}

/** Steps and calls of a run not yet ended. */
export interface Pending {
  integration: string;
  steps: StoredStep[];
  calls: TraceSpan[];
}

/** What a captured request tells about the run it started. */
export interface RunRequestInfo {
  captureId: number;
  status: number;
  /** The request's header values and bodies as text, for search. */
  searchText?: string;
  /** The `error` of a JSON answer, the reason a verification step gave. */
  answerError?: string;
  route?: string;
  /** The requested path without its query. */
  path?: string;
  method: string;
  startedAt: number;
}
