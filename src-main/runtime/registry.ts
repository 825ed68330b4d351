import type { AnyBlockImpl, AnyConnectorImpl, AnySourceImpl } from './core/component.ts';
import { byType, type CelFunctionDef, type ComponentRegistry } from './core/registry-types.ts';
import { filter } from './blocks/filter/filter.ts';
import { flowRef } from './blocks/flow-ref/flow-ref.ts';
import { jwtVerifyBlock } from './blocks/jwt-verify/jwt-verify.ts';
import { log } from './blocks/log/log.ts';
import { set } from './blocks/set/set.ts';
import { switchBlock } from './blocks/switch/switch.ts';
import { notesConnector } from './connectors/notes/notes-connector.ts';
import { notesVerifyRequest } from './connectors/notes/notes-verify-request/notes-verify-request.ts';
import { notesEvent } from './connectors/notes/notes-event/notes-event.ts';
import { notesQueryDatasource } from './connectors/notes/notes-query-datasource/notes-query-datasource.ts';
import { notesRetrievePage } from './connectors/notes/notes-retrieve-page/notes-retrieve-page.ts';
import { notesRetrieveBlocks } from './connectors/notes/notes-retrieve-blocks/notes-retrieve-blocks.ts';
import { notesPageToMarkdown } from './connectors/notes/notes-page-to-markdown/notes-page-to-markdown.ts';
import { httpClient } from './connectors/http-client/http-client.ts';
import { rest } from './connectors/http-client/rest/rest.ts';
import { restDynamic } from './connectors/http-client/rest-dynamic/rest-dynamic.ts';
import { docstore } from './connectors/docstore/docstore.ts';
import { docstoreFind } from './connectors/docstore/find/find.ts';
import { docstoreInsert } from './connectors/docstore/insert/insert.ts';
import { docstoreUpdate } from './connectors/docstore/update/update.ts';
import { docstoreDelete } from './connectors/docstore/delete/delete.ts';
import { docstoreAggregate } from './connectors/docstore/aggregate/aggregate.ts';
import { httpConnector } from './connectors/http/http.ts';
import { routeSource } from './connectors/http/route-source.ts';
import { sseEvent } from './connectors/http/sse-event.ts';
import { kvGet } from './blocks/kv/kv-get.ts';
import { kvPut } from './blocks/kv/kv-put.ts';
import { kvDelete } from './blocks/kv/kv-delete.ts';
import { queueSource } from './blocks/queue/queue.ts';
import { queuePublish } from './blocks/queue/queue-publish.ts';
import { queueRequest } from './blocks/queue/queue-request.ts';
import { topicSource } from './blocks/topic/topic.ts';
import { topicPublish } from './blocks/topic/topic-publish.ts';
import { lock } from './blocks/lock/lock.ts';
import { scheduleSource } from './blocks/schedule/schedule.ts';
import { agentMemoryLoad } from './blocks/agent-memory/agent-memory-load.ts';
import { agentMemorySave } from './blocks/agent-memory/agent-memory-save.ts';
import { agentMemoryAppend } from './blocks/agent-memory/agent-memory-append.ts';
import { agentMemorySearch } from './blocks/agent-memory/agent-memory-search.ts';
import { template } from './blocks/template/template.ts';
import { templateResourceFunction, templateResourcePlainFunction } from './blocks/template/template-resource-function.ts';
import { envFunction } from './blocks/env/env-function.ts';
import { secretFunction } from './blocks/secret/secret-function.ts';

/** Every component the runtime knows. Adding one is its files plus one line here. */
const blocks: AnyBlockImpl[] = [
  filter,
  switchBlock,
  set,
  log,
  flowRef,
  jwtVerifyBlock,
  sseEvent,
  notesVerifyRequest,
  notesEvent,
  notesQueryDatasource,
  notesRetrievePage,
  notesRetrieveBlocks,
  notesPageToMarkdown,
  rest,
  restDynamic,
  docstoreFind,
  docstoreInsert,
  docstoreUpdate,
  docstoreDelete,
  docstoreAggregate,
  kvGet,
  kvPut,
  kvDelete,
  queuePublish,
  queueRequest,
  topicPublish,
  lock,
  agentMemoryLoad,
  agentMemorySave,
  agentMemoryAppend,
  agentMemorySearch,
  template,
];

const connectors: AnyConnectorImpl[] = [
  httpConnector,
  notesConnector,
  httpClient,
  docstore,
];

const sources: AnySourceImpl[] = [routeSource, queueSource, topicSource, scheduleSource];

const celFunctions: CelFunctionDef[] = [envFunction, secretFunction, templateResourceFunction, templateResourcePlainFunction];

export const registry: ComponentRegistry = {
  blocks: byType(blocks),
  connectors: byType(connectors),
  sources: byType(sources),
  celFunctions,
};
