import type { AnalysisRequest, AnalysisResponse, AnalysisResults, DocumentVersion } from './analysis-protocol.ts';

type Op = AnalysisRequest['op'];
type Body<O extends Op> = Omit<Extract<AnalysisRequest, { op: O }>, 'id' | 'op'>;

/** The document an analysis request is about, as the editor has it now. */
export interface AnalysedDocument {
  key: string;
  version: number;
  text(): string;
}

/**
 * Talks to the analysis worker. Sends a document's text only when the worker has not seen that
 * version, and resends it when the worker says its copy is stale.
 */
export class AnalysisClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error & { stale?: boolean }) => void }>();
  private readonly sent = new Map<string, number>();
  private lastContext: { at: string; answer: Promise<AnalysisResults['context']> } | undefined;

  constructor(private readonly worker: Pick<Worker, 'postMessage' | 'addEventListener'>) {
    worker.addEventListener('message', (e: Event) => {
      const res = (e as MessageEvent<AnalysisResponse>).data;
      const p = this.pending.get(res.id);
      if (!p) return;
      this.pending.delete(res.id);
      if (res.ok) p.resolve(res.value);
      else p.reject(Object.assign(new Error(res.error), { stale: res.stale }));
    });
  }

  reference(reference: Body<'reference'>['reference']): Promise<null> {
    return this.send('reference', { reference });
  }

  forget(key: string): void {
    this.sent.delete(key);
    void this.send('forget', { key });
  }

  /**
   * Forwards one edit of a document (Monaco's changes, end first) so the worker's copy follows
   * without the whole text crossing over again. An edit that does not follow the version the
   * worker has makes the next request send the text.
   */
  edit(key: string, version: number, changes: Body<'edit'>['changes']): void {
    if (this.sent.get(key) !== version - 1) {
      this.sent.delete(key);
      return;
    }
    this.sent.set(key, version);
    void this.send('edit', { key, version, changes });
  }

  outline(doc: AnalysedDocument, focus?: string): Promise<AnalysisResults['outline']> {
    return this.withDoc(doc, (d) => this.send('outline', { doc: d, ...(focus ? { focus } : {}) }));
  }

  /**
   * The CEL completion, the schema completion's gate and the cursor follow ask for the same
   * position of the same version at one keystroke: one question to the worker answers them all.
   */
  context(doc: AnalysedDocument, offset: number): Promise<AnalysisResults['context']> {
    const at = `${doc.key}@${doc.version}:${offset}`;
    if (this.lastContext?.at === at) return this.lastContext.answer;
    const answer = this.withDoc(doc, (d) => this.send('context', { doc: d, offset }));
    this.lastContext = { at, answer };
    answer.catch(() => this.lastContext?.answer === answer && (this.lastContext = undefined));
    return answer;
  }

  snippet(doc: AnalysedDocument, offset: number, component: Body<'snippet'>['component']): Promise<AnalysisResults['snippet']> {
    return this.withDoc(doc, (d) => this.send('snippet', { doc: d, offset, component }));
  }

  private async withDoc<T>(doc: AnalysedDocument, call: (d: DocumentVersion) => Promise<T>): Promise<T> {
    const known = this.sent.get(doc.key) === doc.version;
    this.sent.set(doc.key, doc.version);
    try {
      return await call({ key: doc.key, version: doc.version, ...(known ? {} : { text: doc.text() }) });
    } catch (err) {
      if (!(err as { stale?: boolean }).stale) throw err;
      return call({ key: doc.key, version: doc.version, text: doc.text() });
    }
  }

  private send<O extends Op>(op: O, body: Body<O>): Promise<AnalysisResults[O]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, op, ...body } as unknown as AnalysisRequest);
    });
  }
}
