interface Waiting<I, O> {
  input: I;
  resolve: (output: O) => void;
  reject: (err: unknown) => void;
}

/** Requests one statement takes at most; a longer queue goes in several. */
const MAX_BATCH = 512;

/**
 * Requests to PostgreSQL that arrive together go in one statement: those of one turn of the
 * event loop, and those that arrive while the previous statement is on its way. With nothing in
 * flight a request goes at the end of its turn, so a lone request waits for nothing; under load
 * a statement carries every request that came in during the last one's round trip, so the round
 * trips, the driver's work and PostgreSQL's per-statement work are paid once per batch rather
 * than once per request. One statement is in flight at a time: a request never joins one that
 * started before it arrived, so it sees every write acknowledged before it was made.
 *
 * `run` answers a batch in order, one output per input. When it fails as a whole, every request
 * of the batch fails with it; a caller that must not let one request fail the others (a write
 * that breaks a constraint) runs them again one by one in `run` itself.
 */
export class Coalescer<I, O> {
  private waiting: Array<Waiting<I, O>> = [];
  private busy = false;
  private scheduled = false;

  constructor(private readonly run: (inputs: I[]) => Promise<O[]>) {}

  submit(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (!this.busy && !this.scheduled) {
        this.scheduled = true;
        setImmediate(this.send);
      }
    });
  }

  private readonly send = (): void => {
    this.scheduled = false;
    if (this.busy || this.waiting.length === 0) return;
    const batch = this.waiting.length <= MAX_BATCH ? this.waiting : this.waiting.slice(0, MAX_BATCH);
    this.waiting = batch === this.waiting ? [] : this.waiting.slice(MAX_BATCH);
    this.busy = true;
    let outputs: Promise<O[]>;
    try {
      outputs = this.run(batch.map((w) => w.input));
    } catch (err) {
      outputs = Promise.reject(err);
    }
    outputs.then(
      (results) => {
        this.busy = false;
        for (let i = 0; i < batch.length; i++) batch[i].resolve(results[i]);
        this.send();
      },
      (err: unknown) => {
        this.busy = false;
        for (const w of batch) w.reject(err);
        this.send();
      },
    );
  };
}
