import { Type } from '@sinclair/typebox';
import { component } from './contract.ts';
import { defineRoute } from './route.ts';
import {
  agentContext,
  agentId,
  agentIteration,
  agentTokens,
  cursor,
  memoryName,
  objectVersion,
  threadKey,
  threadLimit,
  turnLimit,
  userIdPath,
  userIdQuery,
} from './parameters.ts';
import { AgentIterationHeader, AgentTokensHeader, Conflict, NotFound, ObjectVersionHeader, TooLarge } from './common.ts';
import { KvWritten } from './kv.ts';

export const Turn = component(
  'Turn',
  Type.Object(
    {
      seq: Type.Integer({ minimum: 1 }),
      createdAt: Type.String({ format: 'date-time' }),
    },
    {
      description: 'A turn as the client wrote it (any JSON object, e.g. {role, content}), with `seq` and `createdAt` added by the server.',
      additionalProperties: true,
    },
  ),
);

export const AppendTurnsRequest = component(
  'AppendTurnsRequest',
  Type.Object({
    turns: Type.Array(
      Type.Object(
        {
          seq: Type.Optional(Type.Never({ description: 'assigned by the server; leave it out' })),
          createdAt: Type.Optional(Type.Never({ description: 'assigned by the server; leave it out' })),
        },
        {
          description: 'Any JSON object without `seq` or `createdAt` (400 if present: the server assigns both).',
        },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
  }),
);

export const AppendTurnsResponse = component(
  'AppendTurnsResponse',
  Type.Object({
    version: Type.Integer({
      description: "The conversation's new version (also in X-Object-Version): the version the next working-memory save must send.",
    }),
    turns: Type.Array(
      Type.Object({
        seq: Type.Integer(),
        createdAt: Type.String({ format: 'date-time' }),
      }),
    ),
  }),
);

export const ThreadSummary = component(
  'ThreadSummary',
  Type.Object({
    threadKey: Type.String(),
    userId: Type.Union([Type.String(), Type.Null()], {
      description: 'Recorded on the first write that named one.',
    }),
    title: Type.Union([Type.String(), Type.Null()]),
    version: Type.Integer(),
    turnCount: Type.Integer(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({
      description: 'Last working-memory save or turn append (titles do not count).',
      format: 'date-time',
    }),
  }),
);

export const ThreadPage = component(
  'ThreadPage',
  Type.Object({
    threads: Type.Array(ThreadSummary),
    nextCursor: Type.Optional(Type.String({ description: 'Absent on the last page.' })),
  }),
);

export const ThreadRead = component(
  'ThreadRead',
  Type.Intersect([
    ThreadSummary,
    Type.Object({
      turns: Type.Array(Turn),
      nextCursor: Type.Optional(
        Type.String({
          description: 'Pass as `cursor` for the turns after this page; absent on the last page.',
        }),
      ),
    }),
  ]),
);

export const TitleRequest = component('TitleRequest', Type.Object({ title: Type.String({ minLength: 1, maxLength: 1000 }) }));

export const Memory = component(
  'Memory',
  Type.Object({
    name: Type.String(),
    version: Type.Integer(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    content: Type.Unknown({ description: 'The JSON value written.' }),
  }),
);

export const MemoryList = component(
  'MemoryList',
  Type.Object({
    memories: Type.Array(Memory, { description: 'Ordered by name.' }),
  }),
);

export const MemoryWritten = component('MemoryWritten', Type.Object({ name: Type.String(), version: Type.Integer() }));

export const SearchRequest = component(
  'SearchRequest',
  Type.Object({
    query: Type.String({
      description: 'Words to match (any of them); search syntax is treated as words. 400 when it holds no word.',
      maxLength: 4000,
    }),
    userId: Type.Optional(
      Type.String({
        minLength: 1,
        description: "Only this person's conversations and memories.",
      }),
    ),
    limit: Type.Optional(Type.Integer({ default: 10, minimum: 1, maximum: 100 })),
  }),
);

export const SearchResponse = component(
  'SearchResponse',
  Type.Object({
    hits: Type.Array(
      Type.Union([
        Type.Object(
          {
            kind: Type.Literal('turn'),
            score: Type.Number({
              description: 'Negated BM25: higher is better.',
            }),
            threadKey: Type.String(),
            userId: Type.Union([Type.String(), Type.Null()]),
            turn: Turn,
          },
          { title: 'turn' },
        ),
        Type.Object(
          {
            kind: Type.Literal('memory'),
            score: Type.Number(),
            userId: Type.String(),
            name: Type.String(),
            updatedAt: Type.String({ format: 'date-time' }),
            content: Type.Unknown(),
          },
          { title: 'memory' },
        ),
      ]),
      { description: 'Most relevant first (descending score).' },
    ),
  }),
);

export const loadWorking = defineRoute({
  operationId: 'loadWorking',
  method: 'GET',
  path: '/v1/agent-memory/{agentId}/threads/{threadKey}/working',
  tag: 'agentMemory',
  summary: 'Load working memory',
  description: '404: nothing saved yet (resume from nothing).',
  parameters: [agentId, threadKey, userIdQuery, agentContext],
  responses: {
    200: {
      description: 'The bytes saved, unchanged.',
      content: {
        'application/octet-stream': Type.String({ format: 'binary' }),
      },
      headers: {
        'X-Object-Version': ObjectVersionHeader,
        'X-Agent-Iteration': AgentIterationHeader,
        'X-Agent-Tokens': AgentTokensHeader,
      },
    },
    404: NotFound,
  },
});

export const saveWorking = defineRoute({
  operationId: 'saveWorking',
  method: 'PUT',
  path: '/v1/agent-memory/{agentId}/threads/{threadKey}/working',
  tag: 'agentMemory',
  summary: 'Save working memory',
  description:
    "Creates the conversation on first save. X-Object-Version 0 fails 409 when working memory is already saved; a positive value must equal the conversation's version (which turn appends also move). Never 404.",
  parameters: [agentId, threadKey, userIdQuery, objectVersion, agentIteration, agentTokens, agentContext],
  body: {
    required: true,
    content: { 'application/octet-stream': Type.String({ format: 'binary' }) },
  },
  responses: {
    200: {
      description: 'Replaced.',
      content: { 'application/json': KvWritten },
      headers: { 'X-Object-Version': ObjectVersionHeader },
    },
    201: {
      description: 'Created.',
      content: { 'application/json': KvWritten },
      headers: { 'X-Object-Version': ObjectVersionHeader },
    },
    409: Conflict,
    413: TooLarge,
  },
});

export const appendTurns = defineRoute({
  operationId: 'appendTurns',
  method: 'POST',
  path: '/v1/agent-memory/{agentId}/threads/{threadKey}/turns',
  tag: 'agentMemory',
  summary: 'Append turns',
  description: 'Append-only, never compacted; checks no version. Creates the conversation when absent. Concurrent appends interleave.',
  parameters: [agentId, threadKey, userIdQuery, agentContext],
  body: { required: true, content: { 'application/json': AppendTurnsRequest } },
  responses: {
    200: {
      description: 'Appended.',
      content: { 'application/json': AppendTurnsResponse },
      headers: { 'X-Object-Version': ObjectVersionHeader },
    },
  },
});

export const listThreads = defineRoute({
  operationId: 'listThreads',
  method: 'GET',
  path: '/v1/agent-memory/{agentId}/threads',
  tag: 'agentMemory',
  summary: 'List conversations',
  description: 'Most recently active first. 501 when agentMemory.listThreads is false.',
  parameters: [agentId, userIdQuery, cursor, threadLimit, agentContext],
  responses: {
    200: {
      description: 'A page.',
      content: { 'application/json': ThreadPage },
    },
  },
});

export const readThread = defineRoute({
  operationId: 'readThread',
  method: 'GET',
  path: '/v1/agent-memory/{agentId}/threads/{threadKey}',
  tag: 'agentMemory',
  summary: 'Read a conversation',
  description: 'Metadata and a page of turns in seq order. 501 when agentMemory.readThread is false.',
  parameters: [agentId, threadKey, userIdQuery, cursor, turnLimit, agentContext],
  responses: {
    200: {
      description: 'The conversation.',
      content: { 'application/json': ThreadRead },
    },
    404: NotFound,
  },
});

export const deleteThread = defineRoute({
  operationId: 'deleteThread',
  method: 'DELETE',
  path: '/v1/agent-memory/{agentId}/threads/{threadKey}',
  tag: 'agentMemory',
  summary: 'Delete a conversation',
  description:
    'Erases metadata, working memory, turns and their search entries in one transaction, then purges the search index and the write-ahead log, before answering. 404 when absent: success.',
  parameters: [agentId, threadKey, userIdQuery, agentContext],
  responses: { 204: { description: 'Erased.' }, 404: NotFound },
});

export const setTitle = defineRoute({
  operationId: 'setTitle',
  method: 'PUT',
  path: '/v1/agent-memory/{agentId}/threads/{threadKey}/title',
  tag: 'agentMemory',
  summary: 'Title a conversation',
  description: '404 when the conversation does not exist.',
  parameters: [agentId, threadKey, userIdQuery, agentContext],
  body: { required: true, content: { 'application/json': TitleRequest } },
  responses: { 204: { description: 'Titled.' }, 404: NotFound },
});

export const listMemories = defineRoute({
  operationId: 'listMemories',
  method: 'GET',
  path: '/v1/agent-memory/{agentId}/users/{userId}/memories',
  tag: 'agentMemory',
  summary: "A person's memories",
  parameters: [agentId, userIdPath, agentContext],
  responses: {
    200: {
      description: 'All of them.',
      content: { 'application/json': MemoryList },
    },
  },
});

export const putMemory = defineRoute({
  operationId: 'putMemory',
  method: 'PUT',
  path: '/v1/agent-memory/{agentId}/users/{userId}/memories',
  tag: 'agentMemory',
  summary: 'Write a memory',
  description: '§3.5 version rules. The body is any JSON value.',
  parameters: [agentId, userIdPath, memoryName, objectVersion, agentContext],
  body: {
    required: true,
    description: 'The memory: any JSON value.',
    content: { 'application/json': Type.Unknown() },
  },
  responses: {
    200: {
      description: 'Replaced.',
      content: { 'application/json': MemoryWritten },
      headers: { 'X-Object-Version': ObjectVersionHeader },
    },
    201: {
      description: 'Created.',
      content: { 'application/json': MemoryWritten },
      headers: { 'X-Object-Version': ObjectVersionHeader },
    },
    409: Conflict,
  },
});

export const deleteMemory = defineRoute({
  operationId: 'deleteMemory',
  method: 'DELETE',
  path: '/v1/agent-memory/{agentId}/users/{userId}/memories',
  tag: 'agentMemory',
  summary: 'Forget a memory',
  description: 'An optional positive X-Object-Version must match. 404 when absent: success.',
  parameters: [agentId, userIdPath, memoryName, objectVersion, agentContext],
  responses: { 204: { description: 'Deleted.' }, 404: NotFound, 409: Conflict },
});

export const search = defineRoute({
  operationId: 'search',
  method: 'POST',
  path: '/v1/agent-memory/{agentId}/search',
  tag: 'agentMemory',
  summary: 'Search turns and memories',
  description: 'Text matching (SQLite FTS5, BM25); touches every conversation of the agent. 501 when agentMemory.search is false.',
  parameters: [agentId, agentContext],
  body: { required: true, content: { 'application/json': SearchRequest } },
  responses: {
    200: {
      description: 'Hits.',
      content: { 'application/json': SearchResponse },
    },
  },
});

export const agentMemoryRoutes = [
  loadWorking,
  saveWorking,
  appendTurns,
  listThreads,
  readThread,
  deleteThread,
  setTitle,
  listMemories,
  putMemory,
  deleteMemory,
  search,
] as const;
