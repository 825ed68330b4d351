import type { Dispatcher } from 'undici';

/**
 * What a runtime reaches outside this machine, replaced: flow tests (`flow-studio test`) and
 * stubbed re-runs pass one so a flow runs exactly as written while every outbound exchange is
 * answered from a recording. A deployed runtime never has one.
 */
export interface RuntimeSandbox {
  /**
   * Where every http connector listens instead of its settings (flow tests: 127.0.0.1, port 0),
   * or a choice per connector from what its settings and `$HTTP_HOST`/`$HTTP_PORT` asked for
   * (`host` undefined when neither named one): the studio binds loopback unless told otherwise
   * and gives a `port: 0` connector the port it had before.
   */
  listen?: { host: string; port: number } | ListenChoice;
  /**
   * The undici dispatcher an http-client or notes connector sends through instead of its own
   * pool; undefined keeps the pool. It sees the real request (origin, method, path, headers, body).
   */
  outboundHttp?(connector: string, type: 'http-client' | 'notes'): Dispatcher | undefined;
  /** Stand-in collections for a docstore connector; undefined keeps the driver. */
  docstore?(connector: string): DocstoreStandIn | undefined;
}

export type ListenChoice = (connector: string, wanted: { host: string | undefined; port: number }) => { host: string; port: number };

/**
 * Answers the driver calls docstore blocks make (find().toArray(), insertOne, insertMany,
 * updateOne, updateMany, replaceOne, deleteOne, deleteMany, aggregate().toArray()) with the
 * driver's own result shapes. Typed loosely here so core does not depend on the driver.
 */
export interface DocstoreStandIn {
  collection(database: string, name: string, operation: string): object;
}
