import type { Collection, Document, MongoClient } from 'mongodb';
import { implementConnector, type BuildContext, type Connector } from '../../core/component.ts';
import { errorMessage, FlowError } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import type { DocstoreStandIn } from '../../core/sandbox.ts';
import { clientConfigOf, type ClientConfig, type DocstoreSettings } from './client-config.ts';
import { maskConnectionString, parseConnectionString } from './connection-string.ts';
import { docstoreDef } from './docstore.def.ts';
import { operationFailure, startupFailure } from './driver-errors.ts';
import type { ExtendedJsonMode } from './extended-json.ts';
import { loadMongoDriver } from './mongo-driver.ts';

/**
 * The docstore connector: one MongoClient per connector, opened on start and closed on stop (the
 * driver itself is loaded by the first start, mongo-driver.ts).
 * Blocks reach collections through `run`, which bounds every operation by the connector timeout
 * and turns driver errors into flow errors that never show the password.
 */
export class DocstoreConnector implements Connector {
  readonly extendedJson: ExtendedJsonMode;
  private config: ClientConfig | undefined;
  private mongo: MongoClient | undefined;
  private ready: Promise<MongoClient> | undefined;
  private driver: typeof MongoClient | undefined;
  private stopping = false;
  /**
   * Why the driver's last attempt to reach the server failed (ECONNREFUSED, a TLS error…): when
   * the connector's own deadline ends the start check first, this is what the message gives.
   */
  private lastReachFailure: Error | undefined;

  constructor(
    private readonly settings: DocstoreSettings,
    private readonly path: string,
    private readonly log: Logger,
    /** A sandbox's stand-in collections (flow tests); the driver is then never opened. */
    private readonly standIn?: DocstoreStandIn,
  ) {
    this.extendedJson = settings.extendedJson;
  }

  /** The database blocks use when they name none: the setting, else the uri path; or undefined. */
  defaultDatabase(): string | undefined {
    if (this.settings.database !== undefined) return this.settings.database;
    if (this.config) return this.config.database;
    try {
      return parseConnectionString(this.settings.uri).database;
    } catch {
      return undefined; // start() reports the bad uri
    }
  }

  /** Certain that blocks naming no database have none to use (false while the uri is a variable not known yet). */
  lacksDefaultDatabase(): boolean {
    return typeof this.settings.uri === 'string' && this.defaultDatabase() === undefined;
  }

  get timeoutMs(): number {
    return this.config?.timeoutMs ?? 0;
  }

  /** The driver client, for tests that watch its events; undefined before start. */
  get client(): MongoClient | undefined {
    return this.mongo;
  }

  async start(): Promise<void> {
    this.stopping = false;
    let config: ClientConfig;
    try {
      config = clientConfigOf(this.settings);
    } catch (err) {
      throw this.startError(this.scrub(errorMessage(err)));
    }
    this.config = config;
    if (this.standIn) return;
    for (const warning of config.warnings) this.log.warn(warning, { connector: this.path });
    this.driver = (await loadMongoDriver()).MongoClient;
    try {
      this.mongo = this.newClient(config);
    } catch (err) {
      throw this.startError(
        `the uri is not a valid connection string (${this.scrub(errorMessage(err))}); expected e.g. mongodb://appuser@db.example.com:27017/shop or mongodb+srv://appuser@cluster.example.net/shop`,
      );
    }
    if (!this.settings.verifyOnStart) {
      // Opening in the background warms the pool; the first operation would open it anyway.
      this.connected().catch((err: unknown) => {
        if (!this.stopping) this.log.warn(`docstore server not reachable yet: ${startupFailure(err, config, (t) => this.scrub(t), false)}`, { connector: this.path });
      });
      return;
    }
    const deadline = AbortSignal.timeout(config.timeoutMs);
    try {
      await raceDeadline(
        (async () => {
          const client = await this.connected();
          await client.db('admin').command({ ping: 1 }, { signal: deadline });
        })(),
        deadline,
      );
    } catch (err) {
      await this.stop().catch(() => {});
      // The deadline and the driver's server selection end together; under load ours can win, and
      // its "aborted due to timeout" alone would hide why the server could not be reached.
      const lastAttempt = deadline.aborted ? this.lastReachFailure : undefined;
      throw this.startError(startupFailure(err, config, (t) => this.scrub(t), true, lastAttempt));
    }
    this.log.info('docstore connected', { connector: this.path, uri: config.maskedUri });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const client = this.mongo;
    this.mongo = undefined;
    this.ready = undefined;
    await client?.close();
  }

  private newClient(config: ClientConfig): MongoClient {
    this.lastReachFailure = undefined;
    const client = new this.driver!(config.uri, config.options);
    client.on('serverHeartbeatFailed', (e) => (this.lastReachFailure = e.failure));
    return client;
  }

  /**
   * The client once connected. A MongoClient whose first connect failed stays closed for good
   * (every later operation answers "Topology is closed"), so a failed connect swaps in a fresh
   * client and the next operation tries again.
   */
  private connected(): Promise<MongoClient> {
    const client = this.mongo;
    if (!client) return Promise.reject(new FlowError(`the docstore connector ${this.path} is not started`));
    this.ready ??= client.connect().catch(async (err: unknown) => {
      if (this.mongo === client && !this.stopping) {
        this.mongo = this.newClient(this.config!);
        this.ready = undefined;
      }
      await client.close().catch(() => {});
      throw err;
    });
    return this.ready;
  }

  describe(): Record<string, unknown> {
    const uri = typeof this.settings.uri === 'string' ? maskConnectionString(this.config?.uri ?? this.settings.uri) : undefined;
    return { uri, database: this.settings.database ?? this.config?.database, extendedJson: this.extendedJson };
  }

  /**
   * Runs one driver operation on a collection within the connector timeout. Reads pass `signal`
   * on so the driver closes their cursor; a write is not cut off mid-way (the driver offers no
   * safe abort for it), the flow just stops waiting for it. `what` names it in
   * errors, e.g. `docstore-find on shop.orders`.
   */
  async run<T>(database: string, collection: string, what: string, op: (c: Collection<Document>, signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.standIn) return op(this.standIn.collection(database, collection, what) as Collection<Document>, AbortSignal.timeout(this.timeoutMs || 5000));
    if (!this.mongo) throw new FlowError(`${what}: the docstore connector ${this.path} is not started`);
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const client = await raceDeadline(this.connected(), signal);
      return await raceDeadline(op(client.db(database).collection(collection), signal), signal);
    } catch (err) {
      throw this.operationError(err, what);
    }
  }

  /** A driver error as a flow error (masked, timeouts named). */
  operationError(err: unknown, what: string): FlowError {
    if (err instanceof FlowError) return err;
    return operationFailure(err, what, this.timeoutMs, (t) => this.scrub(t));
  }

  /** Removes the password, in every form it may take, from a message. */
  scrub(text: string): string {
    let out = text;
    const secrets = [...(this.config?.secrets ?? []), this.settings.password ?? ''].filter((s) => s.length > 0);
    for (const secret of secrets) out = out.split(secret).join('****');
    return out.replace(/(mongodb(?:\+srv)?:\/\/[^/:@\s]*):[^@\s]*@/gi, '$1:****@');
  }

  private startError(reason: string): Error {
    return new Error(`${this.path}: docstore connector cannot start: ${reason}`);
  }
}

/** Settles with the work, or rejects with the signal's reason once it aborts. */
function raceDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}

export const docstore = implementConnector(
  docstoreDef,
  (s, ctx: BuildContext) => new DocstoreConnector(s, ctx.path, ctx.log, ctx.host.sandbox?.docstore?.(ctx.path.replace(/^connectors\./, ''))),
  (s) => [
    ...(s.timeout !== undefined && s.timeout <= 0 ? ['timeout must be more than 0, e.g. 30s'] : []),
    ...(s.minPoolSize !== undefined && s.maxPoolSize !== undefined && s.minPoolSize > s.maxPoolSize
      ? [`minPoolSize (${s.minPoolSize}) cannot exceed maxPoolSize (${s.maxPoolSize})`]
      : []),
  ],
);
