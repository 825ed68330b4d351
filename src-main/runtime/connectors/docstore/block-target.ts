import type { Collection, Document } from 'mongodb';
import type { CelActivation, CompiledCel } from '../../core/cel.ts';
import type { BuildContext, Settings } from '../../core/component.ts';
import { FlowError } from '../../core/errors.ts';
import { isRawContent, type Message } from '../../core/message.ts';
import type { DocstoreConnector } from './docstore.ts';
import { toBsonValue, toExtendedJson } from './extended-json.ts';

/** The settings every docstore block starts with (spec 3 §2.5). */
export const targetSettings = {
  connector: { type: 'string', required: true, connectorType: 'docstore', description: 'Name of the docstore connector.' },
  collection: { type: 'cel', required: true, description: 'Collection name; a CEL string, so quote a literal name.', example: '"orders"' },
  database: { type: 'cel', description: "Database name; default: the connector's database.", example: '"shop"' },
  resultVar: { type: 'string', description: 'Variable receiving the result; the body is then left alone. Default: the result becomes the body.', example: 'found' },
} as const;

type TargetSettings = Settings<typeof targetSettings>;

const MESSAGE_NAMES = new Set(['body', 'vars', 'correlationID', 'error']);

/**
 * `collection: orders` compiles as CEL naming a variable that does not exist; say so at load
 * instead of failing every message.
 */
export function checkTargetSettings(s: TargetSettings): string[] {
  const problems: string[] = [];
  for (const [name, cel] of [['collection', s.collection], ['database', s.database]] as const) {
    const source = cel?.source.trim();
    if (source && /^[A-Za-z_][A-Za-z0-9_]*$/.test(source) && !MESSAGE_NAMES.has(source)) {
      problems.push(`${name} is a CEL expression and ${source} is not a variable; for the ${name} named ${source} write ${name}: '"${source}"'`);
    }
  }
  return problems;
}

/** Where a block reads or writes, and how its result reaches the message. */
export class DocstoreTarget {
  readonly connector: DocstoreConnector;

  constructor(
    private readonly s: TargetSettings,
    ctx: BuildContext,
    readonly block: string,
  ) {
    this.connector = ctx.connector<DocstoreConnector>(s.connector);
    if (s.database === undefined && this.connector.lacksDefaultDatabase()) {
      throw new Error(`no database to use: set database on this block, or database (or a database in the uri path) on connector "${s.connector}"`);
    }
  }

  /** Resolves the collection and database for one message, then runs the operation. */
  run<T>(act: CelActivation, op: (c: Collection<Document>, signal: AbortSignal) => Promise<T>): Promise<T> {
    const collection = this.name(this.s.collection.evaluate(act), 'collection');
    const database = this.s.database ? this.name(this.s.database.evaluate(act), 'database') : this.connector.defaultDatabase();
    if (database === undefined) throw this.refuse(`no database to use; set database on this block or on connector "${this.s.connector}"`);
    return this.connector.run(database, collection, `${this.block} on ${database}.${collection}`, op);
  }

  /** The result as the body, or in `resultVar` leaving the body alone. */
  deliver(msg: Message, result: unknown): Message {
    if (this.s.resultVar) msg.vars[this.s.resultVar] = result;
    else msg.body = result;
    return msg;
  }

  /** A BSON document or list of them as extended JSON in the connector's mode. */
  output(value: unknown): unknown {
    return toExtendedJson(value, this.connector.extendedJson);
  }

  /** A refusal: the block will not call the driver with this. */
  refuse(reason: string): FlowError {
    return new FlowError(`${this.block} refused: ${reason}`);
  }

  /** Evaluates a CEL setting that must give one document (a JSON object), as BSON. */
  document(cel: CompiledCel, act: CelActivation, setting: string): Record<string, unknown> {
    const value = cel.evaluate(act);
    if (!isPlainObject(value)) throw this.refuse(`${setting} must evaluate to an object, got ${kindOf(value)}`);
    return bsonOf(value, setting, (r) => this.refuse(r)) as Record<string, unknown>;
  }

  /** Like `document`, but null stands for an unset optional setting. */
  optionalDocument(cel: CompiledCel, act: CelActivation, setting: string): Record<string, unknown> | undefined {
    const value = cel.evaluate(act);
    if (value === null || value === undefined) return undefined;
    if (!isPlainObject(value)) throw this.refuse(`${setting} must evaluate to an object or null, got ${kindOf(value)}`);
    return bsonOf(value, setting, (r) => this.refuse(r)) as Record<string, unknown>;
  }

  private name(value: unknown, setting: string): string {
    if (typeof value !== 'string' || value === '') throw this.refuse(`${setting} must evaluate to a non-empty string, got ${kindOf(value)}`);
    return value;
  }
}

/** A message value as BSON, refusing malformed extended JSON (e.g. an $oid that is not 24 hex digits). */
export function bsonOf(value: unknown, setting: string, refuse: (reason: string) => Error): unknown {
  try {
    return toBsonValue(value);
  } catch (err) {
    throw refuse(`${setting} is not valid extended JSON: ${(err as Error).message}`);
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isRawContent(value) && !(value instanceof Uint8Array) && !(value instanceof Date);
}

/** A short description of a value for refusals, without echoing possibly large or private data. */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  if (isRawContent(value)) return `raw content (${value.contentType})`;
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
