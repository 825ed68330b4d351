/** What the Logs panel asks of the stored log lines. */
export interface LogQuery {
  /** Lines at most (1 to 5,000); the newest come. */
  limit: number;
  /** Only lines older than this line (its `seq`), to page back. */
  before?: number;
  /** Only the lines of one run. */
  runId?: string;
}
