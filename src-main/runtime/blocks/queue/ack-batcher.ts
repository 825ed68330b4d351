/**
 * Collects the handles settled in the same turn of the event loop into one request: with many
 * workers finishing together, one ack call carries all of their handles instead of one each.
 */
export class AckBatcher {
  private pending: Array<{ handle: string; done: (err?: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    private readonly send: (handles: string[]) => Promise<void>,
    private readonly maxBatch: number,
  ) {}

  add(handle: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ handle, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (this.pending.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
    this.send(batch.map((b) => b.handle)).then(
      () => batch.forEach((b) => b.done()),
      (err: unknown) => batch.forEach((b) => b.done(err ?? new Error('settle failed'))),
    );
  }
}
