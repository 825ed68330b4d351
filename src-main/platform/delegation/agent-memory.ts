import { badRequest, conflict, notFound, tooLarge } from '../http/api-error.ts';
import { parseJsonText, readBody, readJsonObject, sendBytes, sendEmpty, sendJson } from '../http/http-io.ts';
import { countHeader, objectVersionHeader, optionalCount, queryLimit, requiredQuery, requiredString } from '../http/request-fields.ts';
import type { Route, RouteContext } from '../http/router.ts';
import type { SearchHit, StoredTurn, ThreadSummary } from '../store/agent-memory-store.ts';
import { checkAgentContext } from './agent-context.ts';
import { MAX_JSON_BODY_BYTES, type PlatformContext } from './platform-context.ts';

const THREAD = '/v1/agent-memory/{agentId}/threads/{threadKey}';
const MEMORIES = '/v1/agent-memory/{agentId}/users/{userId}/memories';
const MAX_TURNS_PER_APPEND = 1000;
const MAX_APPEND_BYTES = 8 * 1024 * 1024;

/**
 * Agent memory (§4.5). Every route first checks X-Flow-Agent-Context (400 when unreadable).
 * `userId` on thread routes only attributes a conversation (recorded on the first write that
 * names one) and filters the thread list; the thread key alone addresses a conversation.
 */
export function agentMemoryRoutes(p: PlatformContext): Route[] {
  const { agentMemory: store, features } = p;
  const am = features.agentMemory;
  type OptionalRoute = 'listThreads' | 'readThread' | 'search';
  const route = (method: Route['method'], path: string, handle: (ctx: RouteContext) => Promise<void>, flag?: OptionalRoute): Route => ({
    method,
    path,
    capability: flag && am.supported ? `agentMemory.${flag}` : 'agentMemory',
    enabled: am.supported && (flag ? am[flag] : true),
    handle(ctx) {
      checkAgentContext(ctx.req);
      return handle(ctx);
    },
  });
  const userIdOf = (ctx: RouteContext): string | undefined => ctx.query.get('userId') || undefined;

  return [
    route('GET', `${THREAD}/working`, async (ctx) => {
      const { agentId, threadKey } = ctx.params;
      const working = await store.readWorking(agentId, threadKey);
      if (!working) throw notFound('working_memory_not_found', `conversation "${threadKey}" of agent "${agentId}" has no saved working memory`);
      sendBytes(ctx.res, 200, working.bytes, {
        'x-object-version': working.version,
        'x-agent-iteration': working.iteration,
        'x-agent-tokens': working.tokens,
      });
    }),
    route('PUT', `${THREAD}/working`, async (ctx) => {
      const { agentId, threadKey } = ctx.params;
      const expected = objectVersionHeader(ctx.req.headers['x-object-version']);
      const iteration = countHeader(ctx.req.headers['x-agent-iteration'], 'X-Agent-Iteration');
      const tokens = countHeader(ctx.req.headers['x-agent-tokens'], 'X-Agent-Tokens');
      const bytes = await readBody(ctx.req, am.maxWorkingMemoryBytes, (max) =>
        tooLarge('value_too_large', `working memory for "${threadKey}" is larger than agentMemory.maxWorkingMemoryBytes (${max} bytes)`),
      );
      const outcome = await store.saveWorking(agentId, threadKey, userIdOf(ctx), bytes, expected, iteration, tokens);
      if (!outcome.ok) throw conflict('version_conflict', `working memory of conversation "${threadKey}": ${outcome.conflict}`);
      sendJson(ctx.res, outcome.created ? 201 : 200, `{"version":${outcome.version}}`, { 'x-object-version': outcome.version });
    }),
    route('POST', `${THREAD}/turns`, async (ctx) => {
      const { agentId, threadKey } = ctx.params;
      const turns = turnTexts(await readJsonObject(ctx.req, MAX_APPEND_BYTES));
      const appended = await store.appendTurns(agentId, threadKey, userIdOf(ctx), turns);
      sendJson(ctx.res, 200, { version: appended.version, turns: appended.turns.map((t) => ({ seq: t.seq, createdAt: iso(t.createdAt) })) }, {
        'x-object-version': appended.version,
      });
    }),
    route(
      'GET',
      '/v1/agent-memory/{agentId}/threads',
      async (ctx) => {
        const limit = queryLimit(ctx.query, 20, 100);
        const threads = await store.listThreads(ctx.params.agentId, userIdOf(ctx), threadCursor(ctx.query.get('cursor')), limit + 1);
        const page = threads.slice(0, limit);
        const last = page[page.length - 1];
        const nextCursor = threads.length > limit ? Buffer.from(JSON.stringify([last.updatedAt, last.threadKey])).toString('base64url') : undefined;
        sendJson(ctx.res, 200, { threads: page.map(threadJson), ...(nextCursor ? { nextCursor } : {}) });
      },
      'listThreads',
    ),
    route(
      'GET',
      THREAD,
      async (ctx) => {
        const { agentId, threadKey } = ctx.params;
        const thread = await store.getThread(agentId, threadKey);
        if (!thread) throw notFound('thread_not_found', `agent "${agentId}" has no conversation "${threadKey}"`);
        const limit = queryLimit(ctx.query, 100, 1000);
        const cursor = ctx.query.get('cursor');
        const after = cursor === null ? 0 : Number(cursor);
        if (!Number.isSafeInteger(after) || after < 0) throw badRequest('invalid_parameter', `"cursor" must be a nextCursor from an earlier page, got "${cursor!.slice(0, 40)}"`);
        const turns = await store.readTurns(agentId, threadKey, after, limit + 1);
        const page = turns.slice(0, limit);
        const nextCursor = turns.length > limit ? String(page[page.length - 1].seq) : undefined;
        sendJson(ctx.res, 200, { ...threadJson(thread), turns: page.map(turnJson), ...(nextCursor ? { nextCursor } : {}) });
      },
      'readThread',
    ),
    route('DELETE', THREAD, async (ctx) => {
      const { agentId, threadKey } = ctx.params;
      if (!(await store.deleteThread(agentId, threadKey))) throw notFound('thread_not_found', `agent "${agentId}" has no conversation "${threadKey}" (already deleted)`);
      sendEmpty(ctx.res, 204);
    }),
    route('PUT', `${THREAD}/title`, async (ctx) => {
      const { agentId, threadKey } = ctx.params;
      const title = requiredString(await readJsonObject(ctx.req, MAX_JSON_BODY_BYTES), 'title', 1000);
      if (!(await store.setTitle(agentId, threadKey, title))) throw notFound('thread_not_found', `agent "${agentId}" has no conversation "${threadKey}" to title`);
      sendEmpty(ctx.res, 204);
    }),
    route('GET', MEMORIES, async (ctx) => {
      const memories = await store.listMemories(ctx.params.agentId, ctx.params.userId);
      sendJson(
        ctx.res,
        200,
        `{"memories":[${memories
          .map((m) => `{"name":${JSON.stringify(m.name)},"version":${m.version},"createdAt":"${iso(m.createdAt)}","updatedAt":"${iso(m.updatedAt)}","content":${m.content}}`)
          .join(',')}]}`,
      );
    }),
    route('PUT', MEMORIES, async (ctx) => {
      const { agentId, userId } = ctx.params;
      const name = requiredQuery(ctx.query, 'name', `${MEMORIES.replace('{agentId}', agentId).replace('{userId}', userId)}?name=preferences%2Fdiet`);
      const expected = objectVersionHeader(ctx.req.headers['x-object-version']);
      const bytes = await readBody(ctx.req, MAX_JSON_BODY_BYTES);
      const content = memoryContent(bytes);
      const outcome = await store.putMemory(agentId, userId, name, content, expected);
      if (!outcome.ok) throw conflict('version_conflict', `memory "${name}" of user "${userId}": ${outcome.conflict}`);
      sendJson(ctx.res, outcome.created ? 201 : 200, { name, version: outcome.version }, { 'x-object-version': outcome.version });
    }),
    route('DELETE', MEMORIES, async (ctx) => {
      const { agentId, userId } = ctx.params;
      const name = requiredQuery(ctx.query, 'name', `${MEMORIES.replace('{agentId}', agentId).replace('{userId}', userId)}?name=preferences%2Fdiet`);
      const outcome = await store.deleteMemory(agentId, userId, name, objectVersionHeader(ctx.req.headers['x-object-version']));
      if (!outcome.ok) throw conflict('version_conflict', `memory "${name}" of user "${userId}": ${outcome.conflict}`);
      if (!outcome.deleted) throw notFound('memory_not_found', `user "${userId}" has no memory "${name}" (already deleted)`);
      sendEmpty(ctx.res, 204);
    }),
    route(
      'POST',
      '/v1/agent-memory/{agentId}/search',
      async (ctx) => {
        const body = await readJsonObject(ctx.req, MAX_JSON_BODY_BYTES);
        const query = requiredString(body, 'query', 4000);
        const userId = body.userId === undefined ? undefined : requiredString(body, 'userId');
        const hits = await store.search(ctx.params.agentId, query, userId, optionalCount(body, 'limit', 10, 1, 100));
        if (!hits) throw badRequest('invalid_field', '"query" has no word to search for');
        sendJson(ctx.res, 200, `{"hits":[${hits.map(hitJson).join(',')}]}`);
      },
      'search',
    ),
  ];
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The turns of an append request as JSON texts; the server assigns `seq` and `createdAt`. */
function turnTexts(body: Record<string, unknown>): string[] {
  const { turns } = body;
  if (!Array.isArray(turns) || turns.length === 0) throw badRequest('missing_field', 'the request body needs "turns": a non-empty array of turn objects');
  if (turns.length > MAX_TURNS_PER_APPEND) throw badRequest('invalid_field', `"turns" has ${turns.length} entries; append at most ${MAX_TURNS_PER_APPEND} at once`);
  return turns.map((turn, i) => {
    if (typeof turn !== 'object' || turn === null || Array.isArray(turn)) throw badRequest('invalid_field', `turns[${i}] must be a JSON object`);
    for (const assigned of ['seq', 'createdAt']) {
      if (assigned in turn) throw badRequest('invalid_field', `turns[${i}].${assigned} is assigned by the server; leave it out`);
    }
    return JSON.stringify(turn);
  });
}

function memoryContent(bytes: Buffer): string {
  if (bytes.length === 0) throw badRequest('missing_body', 'a memory is a JSON value in the request body; the body is empty');
  return JSON.stringify(parseJsonText(bytes.toString('utf8'), 'the memory'));
}

function threadCursor(cursor: string | null): { updatedAt: number; threadKey: string } | undefined {
  if (cursor === null) return undefined;
  try {
    const [updatedAt, threadKey] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof updatedAt === 'number' && typeof threadKey === 'string') return { updatedAt, threadKey };
  } catch {
    // fall through to the 400
  }
  throw badRequest('invalid_parameter', `"cursor" must be a nextCursor from an earlier page, got "${cursor.slice(0, 40)}"`);
}

function threadJson(t: ThreadSummary): Record<string, unknown> {
  return { threadKey: t.threadKey, userId: t.userId, title: t.title, version: t.version, turnCount: t.turnCount, createdAt: iso(t.createdAt), updatedAt: iso(t.updatedAt) };
}

function turnJson(t: StoredTurn): Record<string, unknown> {
  return { seq: t.seq, createdAt: iso(t.createdAt), ...(JSON.parse(t.turn) as object) };
}

function hitJson(h: SearchHit): string {
  if (h.kind === 'turn') {
    return JSON.stringify({ kind: 'turn', score: h.score, threadKey: h.threadKey, userId: h.userId, turn: turnJson(h) });
  }
  return `{"kind":"memory","score":${h.score},"userId":${JSON.stringify(h.userId)},"name":${JSON.stringify(h.name)},"updatedAt":"${iso(h.updatedAt)}","content":${h.content}}`;
}
