import { EJSON, ObjectId } from 'bson';
import { sleepOn, systemClock, type Clock } from '../../../shared/clock.ts';
import { MockAgent, type Dispatcher, type Interceptable } from 'undici';
import { type DocstoreStandIn, type RuntimeSandbox, type Settings } from '../../runtime/index.ts';
import type { FlowTestSettings } from './test-file-loader.ts';
import type { docstoreStubFields, httpStubFields } from './test-file.def.ts';

type HttpStub = Settings<typeof httpStubFields>;
type DocstoreStub = Settings<typeof docstoreStubFields>;

/** An outbound call the flow made while under test, as the stand-in saw it on the wire. */
export interface OutboundCall {
  via: 'http-client' | 'notes';
  method: string;
  origin: string;
  path: string;
  body: unknown;
  status: number;
}

export interface StandIns {
  sandbox: RuntimeSandbox;
  calls: OutboundCall[];
  close(): Promise<void>;
}

/**
 * The outside world of one test: undici MockAgents answer http-client and notes requests from the
 * stubs (undici's own wire-level mock: the connector's request is dispatched exactly as it would
 * be, only no socket opens), and a stand-in answers docstore operations. A request no stub
 * matches fails the call with undici's "Mock dispatch not matched" naming method and path.
 */
/** `clock` times the stubs' `delay` (a flow test's virtual clock, or the system clock). */
export function standInsFor(stubs: FlowTestSettings['stubs'], listen: RuntimeSandbox['listen'], clock: Clock = systemClock): StandIns {
  const calls: OutboundCall[] = [];
  const agents: MockAgent[] = [];
  const agentFor = (via: OutboundCall['via'], routes: readonly HttpStub[] | undefined) => {
    const agent = new MockAgent({ connections: 1 });
    agent.disableNetConnect();
    agents.push(agent);
    // MockAgent consults one pool per origin: the exact origin's if it has one, else the first
    // matcher's. So a stub for any origin is added to the any-origin pool and to every named one.
    const origins = [...new Set((routes ?? []).flatMap((r) => (r.origin ? [r.origin.replace(/\/+$/, '')] : [])))];
    const anyOrigin = agent.get(() => true);
    for (const route of routes ?? []) {
      const pools = route.origin ? [agent.get(route.origin.replace(/\/+$/, ''))] : [anyOrigin, ...origins.map((o) => agent.get(o))];
      for (const pool of pools) addRoute(pool, route, (call) => calls.push({ ...call, via }), clock);
    }
    return (): Dispatcher => agent;
  };
  const httpAgent = agentFor('http-client', stubs?.http);
  const notesAgent = agentFor('notes', stubs?.notes);
  const docstore = docstoreStandIn(stubs?.docstore ?? []);
  return {
    calls,
    sandbox: {
      listen,
      outboundHttp: (_connector, type) => (type === 'notes' ? notesAgent() : httpAgent()),
      docstore: () => docstore,
    },
    close: async () => {
      await Promise.all(agents.map((a) => a.close()));
    },
  };
}

function addRoute(pool: Interceptable, route: HttpStub, record: (call: Omit<OutboundCall, 'via'>) => void, clock: Clock): void {
  const wantsQuery = route.path.includes('?');
  const interceptor = pool.intercept({
    method: route.method,
    path: (p: string) => (wantsQuery ? p === route.path : p.split('?')[0] === route.path),
  });
  const isJson = route.body !== undefined && typeof route.body !== 'string';
  const headers: Record<string, string> = {
    ...(isJson ? { 'content-type': 'application/json' } : {}),
    ...route.headers,
  };
  const scope = interceptor.reply((opts) => {
    record({
      method: opts.method,
      origin: opts.origin ?? '',
      path: opts.path,
      body: sentBody(opts.body),
      status: route.status,
    });
    const data = route.body === undefined ? '' : isJson ? JSON.stringify(route.body) : String(route.body);
    if (route.delay <= 0) return { statusCode: route.status, data, responseOptions: { headers } };
    // The delay runs on the test's clock (undici's own delay would always take real time): undici
    // waits for a body given as a promise, and drops the answer if the caller aborted meanwhile.
    const later = () => sleepOn(clock, route.delay).then(() => data);
    return { statusCode: route.status, data: later as unknown as string, responseOptions: { headers } };
  });
  if (route.times !== undefined) scope.times(route.times);
  else scope.persist();
}

function sentBody(body: unknown): unknown {
  if (body === undefined || body === null) return null;
  const text = typeof body === 'string' ? body : body instanceof Uint8Array ? Buffer.from(body).toString('utf8') : String(body);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const OPERATIONS: Record<string, DocstoreStub['operation']> = {
  find: 'find',
  insertOne: 'insert',
  insertMany: 'insert',
  updateOne: 'update',
  updateMany: 'update',
  replaceOne: 'update',
  deleteOne: 'delete',
  deleteMany: 'delete',
  aggregate: 'aggregate',
};

/**
 * Driver-shaped answers from the stubs, in order per operation: a stub with `times` is used up,
 * one without answers every later match. Results are extended JSON, turned into BSON values so
 * the blocks render them exactly as they render the driver's.
 */
function docstoreStandIn(stubs: readonly DocstoreStub[]): DocstoreStandIn {
  const left = stubs.map((s) => s.times ?? Infinity);
  const take = (operation: DocstoreStub['operation'], collection: string, database: string): DocstoreStub | undefined => {
    const i = stubs.findIndex((s, n) => s.operation === operation && (s.collection === undefined || s.collection === collection) && left[n] > 0);
    if (i < 0) {
      if (operation === 'insert') return undefined;
      throw new Error(`no docstore stub for ${operation} on ${database}.${collection}; add one under stubs.docstore`);
    }
    left[i]--;
    return stubs[i];
  };
  const bson = (value: unknown): unknown => EJSON.deserialize(value as Record<string, unknown>, { relaxed: false });
  return {
    collection(database, name) {
      const answer = (method: string) => take(OPERATIONS[method], name, database);
      const cursor = (method: string) => ({
        toArray: async () => bson(answer(method)?.result ?? []),
      });
      const write = (method: string, count?: number) => async () => {
        const stub = answer(method);
        if (OPERATIONS[method] === 'insert') {
          const ids =
            (stub?.result as { insertedIds?: unknown[] } | undefined)?.insertedIds?.map((id) => bson({ id }) as { id: unknown }).map((x) => x.id) ??
            Array.from({ length: count ?? 1 }, () => new ObjectId());
          return method === 'insertOne'
            ? { acknowledged: true, insertedId: ids[0] }
            : {
                acknowledged: true,
                insertedCount: ids.length,
                insertedIds: Object.fromEntries(ids.map((id, i) => [i, id])),
              };
        }
        return { acknowledged: true, ...(stub?.result as object) };
      };
      return {
        find: () => cursor('find'),
        aggregate: () => cursor('aggregate'),
        insertOne: write('insertOne'),
        insertMany: (docs: unknown[]) => write('insertMany', docs.length)(),
        updateOne: write('updateOne'),
        updateMany: write('updateMany'),
        replaceOne: write('replaceOne'),
        deleteOne: write('deleteOne'),
        deleteMany: write('deleteMany'),
      };
    },
  };
}
