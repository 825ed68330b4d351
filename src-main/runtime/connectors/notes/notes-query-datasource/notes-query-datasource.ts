import { activationOf } from '../../../core/activation.ts';
import { implementBlock } from '../../../core/component.ts';
import { FlowError } from '../../../core/errors.ts';
import type { Message } from '../../../core/message.ts';
import type { CompiledCel } from '../../../core/cel.ts';
import { isObject, NotesApiError, type JsonObject } from '../notes-api-client.ts';
import { DEFAULT_NOTES_VERSION } from '../notes-connector.def.ts';
import type { NotesConnector } from '../notes-connector.ts';
import { apiStep, idFrom } from '../notes-api-step.ts';
import { notesQueryDatasourceDef } from './notes-query-datasource.def.ts';

export const notesQueryDatasource = implementBlock(
  notesQueryDatasourceDef,
  (s, ctx) => {
    const connector = ctx.connector<NotesConnector>(s.connector);
    // Versions are dates, so string order is time order.
    if (connector.notesVersion < DEFAULT_NOTES_VERSION) {
      throw new Error(`the data-sources query API needs notesVersion ${DEFAULT_NOTES_VERSION} or later; connector "${s.connector}" sends ${connector.notesVersion}`);
    }
    const { api } = connector;
    return {
      process(msg) {
        const query = queryBody(msg, s.filter, s.sorts, s.pageSize);
        const databaseId = s.database ? idFrom(s.database, msg, 'database') : undefined;
        const dataSourceId = s.dataSource ? idFrom(s.dataSource, msg, 'dataSource') : undefined;
        return apiStep(msg, s.failOnError, async () => {
          const id = dataSourceId ?? firstDataSource(databaseId!, await api.get(`/databases/${encodeURIComponent(databaseId!)}`));
          const envelope = await api.post(`/data_sources/${encodeURIComponent(id)}/query`, query);
          return (m) => (m.vars[s.resultVar] = envelope);
        });
      },
    };
  },
  (s) => {
    const problems: string[] = [];
    if ((s.dataSource === undefined) === (s.database === undefined)) {
      problems.push(s.dataSource === undefined ? 'give one of dataSource or database' : 'give only one of dataSource or database, not both');
    }
    if (s.resultVar?.trim() === '') problems.push('resultVar must name a variable');
    return problems;
  },
);

function queryBody(msg: Message, filter: CompiledCel | undefined, sorts: CompiledCel | undefined, pageSize: number | undefined): JsonObject {
  const act = activationOf(msg);
  const body: JsonObject = {};
  if (filter) {
    const value = filter.evaluate(act);
    if (value !== null && !isObject(value)) throw new FlowError(`filter must produce an object, got ${Array.isArray(value) ? 'a list' : typeof value}`);
    if (value !== null) body.filter = value;
  }
  if (sorts) {
    const value = sorts.evaluate(act);
    if (value !== null && !Array.isArray(value)) throw new FlowError(`sorts must produce a list of sort objects, got ${typeof value}`);
    if (value !== null) body.sorts = value;
  }
  if (pageSize !== undefined) body.page_size = pageSize;
  return body;
}

/** Spec 3 §9: a database holds one or more data sources; deriving from a database uses the first. */
function firstDataSource(databaseId: string, database: JsonObject): string {
  const first = Array.isArray(database.data_sources) ? database.data_sources[0] : undefined;
  if (isObject(first) && typeof first.id === 'string' && first.id !== '') return first.id;
  throw new NotesApiError(undefined, 'no_data_source', `database ${databaseId} lists no data source to query`);
}
