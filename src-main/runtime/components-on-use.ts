/**
 * The components a runtime loads on first use (runtime/components.ts): those of the notes,
 * http-client and docstore connectors, the blocks and sources that work through the platform's
 * delegation API, and schedules. They come in this one module because a module costs its own
 * loading besides its code (and splitting them finer would split the runtime's own modules too).
 */
export { notesConnector } from './connectors/notes/notes-connector.ts';
export { notesVerifyRequest } from './connectors/notes/notes-verify-request/notes-verify-request.ts';
export { notesEvent } from './connectors/notes/notes-event/notes-event.ts';
export { notesQueryDatasource } from './connectors/notes/notes-query-datasource/notes-query-datasource.ts';
export { notesRetrievePage } from './connectors/notes/notes-retrieve-page/notes-retrieve-page.ts';
export { notesRetrieveBlocks } from './connectors/notes/notes-retrieve-blocks/notes-retrieve-blocks.ts';
export { notesPageToMarkdown } from './connectors/notes/notes-page-to-markdown/notes-page-to-markdown.ts';
export { httpClient } from './connectors/http-client/http-client.ts';
export { rest } from './connectors/http-client/rest/rest.ts';
export { restDynamic } from './connectors/http-client/rest-dynamic/rest-dynamic.ts';
export { docstore } from './connectors/docstore/docstore.ts';
export { docstoreFind } from './connectors/docstore/find/find.ts';
export { docstoreInsert } from './connectors/docstore/insert/insert.ts';
export { docstoreUpdate } from './connectors/docstore/update/update.ts';
export { docstoreDelete } from './connectors/docstore/delete/delete.ts';
export { docstoreAggregate } from './connectors/docstore/aggregate/aggregate.ts';
export { kvGet } from './blocks/kv/kv-get.ts';
export { kvPut } from './blocks/kv/kv-put.ts';
export { kvDelete } from './blocks/kv/kv-delete.ts';
export { queueSource } from './blocks/queue/queue.ts';
export { queuePublish } from './blocks/queue/queue-publish.ts';
export { queueRequest } from './blocks/queue/queue-request.ts';
export { topicSource } from './blocks/topic/topic.ts';
export { topicPublish } from './blocks/topic/topic-publish.ts';
export { lock } from './blocks/lock/lock.ts';
export { agentMemoryLoad } from './blocks/agent-memory/agent-memory-load.ts';
export { agentMemorySave } from './blocks/agent-memory/agent-memory-save.ts';
export { agentMemoryAppend } from './blocks/agent-memory/agent-memory-append.ts';
export { agentMemorySearch } from './blocks/agent-memory/agent-memory-search.ts';
export { scheduleSource } from './blocks/schedule/schedule.ts';
