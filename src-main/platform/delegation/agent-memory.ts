import { badRequest, conflict, notFound, tooLarge } from '../http/api-error.ts';
import { parseJsonText, sendBytes, sendEmpty, sendJson } from '../http/http-io.ts';
import * as api from '../../../shared/platform-api/agent-memory.ts';
import type { ApiRoute } from '../../../shared/platform-api/contract.ts';
import { implement, type BodyLimit, type ContractContext } from '../http/contract-route.ts';
import { countHeader, objectVersionHeader } from '../http/headers-and-names.ts';
import type { Route } from '../http/router.ts';
import type { SearchHit, StoredTurn, ThreadSummary } from '../store/agent-memory-store.ts';
import { checkAgentContext } from './agent-context.ts';
import type { PlatformContext } from './platform-context.ts';

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
  const route = <R extends ApiRoute>(contract: R, handle: (ctx: ContractContext<R>) => Promise<void>, flag?: OptionalRoute, body?: BodyLimit): Route =>
    implement(
      contract,
      { capability: flag && am.supported ? `agentMemory.${flag}` : 'agentMemory', enabled: am.supported && (flag ? am[flag] : true) },
      (ctx) => {
        checkAgentContext(ctx.req);
        return handle(ctx);
      },
      body,
    );

  return [
    route(api.loadWorking, async (ctx) => {
      const { agentId, threadKey } = ctx.params;
      const working = await store.readWorking(agentId, threadKey);
      if (!working) throw notFound('working_memory_not_found', `conversation "${threadKey}" of agent "${agentId}" has no saved working memory`);
      sendBytes(ctx.res, 200, working.bytes, {
        'x-object-version': working.version,
        'x-agent-iteration': working.iteration,
        'x-agent-tokens': working.tokens,
      });
    }),
    route(api.saveWorking, async (ctx) => {
      const { agentId, threadKey } = ctx.params;
      const expected = objectVersionHeader(ctx.req.headers['x-object-version']);
      const iteration = countHeader(ctx.req.headers['x-agent-iteration'], 'X-Agent-Iteration');
      const tokens = countHeader(ctx.req.headers['x-agent-tokens'], 'X-Agent-Tokens');
      const bytes = await ctx.bytes();
      const outcome = await store.saveWorking(agentId, threadKey, ctx.input.userId, bytes, expected, iteration, tokens);
      if (!outcome.ok) throw conflict('version_conflict', `working memory of conversation "${threadKey}": ${outcome.conflict}`);
      sendJson(ctx.res, outcome.created ? 201 : 200, `{"version":${outcome.version}}`, { 'x-object-version': outcome.version });
    }, undefined, { maxBytes: am.maxWorkingMemoryBytes, refuse: (max) => tooLarge('value_too_large', `the working memory is larger than agentMemory.maxWorkingMemoryBytes (${max} bytes)`) }),
    route(api.appendTurns, async (ctx) => {
      const { agentId, threadKey } = ctx.params;
      const { turns } = await ctx.json();
      const appended = await store.appendTurns(agentId, threadKey, ctx.input.userId, turns.map((turn) => JSON.stringify(turn)));
      sendJson(ctx.res, 200, { version: appended.version, turns: appended.turns.map((t) => ({ seq: t.seq, createdAt: iso(t.createdAt) })) }, {
        'x-object-version': appended.version,
      });
    }, undefined, { maxBytes: MAX_APPEND_BYTES }),
    route(
      api.listThreads,
      async (ctx) => {
        const { limit = 20, cursor, userId } = ctx.input;
        const threads = await store.listThreads(ctx.params.agentId, userId, threadCursor(cursor), limit + 1);
        const page = threads.slice(0, limit);
        const last = page[page.length - 1];
        const nextCursor = threads.length > limit ? Buffer.from(JSON.stringify([last.updatedAt, last.threadKey])).toString('base64url') : undefined;
        sendJson(ctx.res, 200, { threads: page.map(threadJson), ...(nextCursor ? { nextCursor } : {}) });
      },
      'listThreads',
    ),
    route(
      api.readThread,
      async (ctx) => {
        const { agentId, threadKey } = ctx.params;
        const thread = await store.getThread(agentId, threadKey);
        if (!thread) throw notFound('thread_not_found', `agent "${agentId}" has no conversation "${threadKey}"`);
        const { limit = 100, cursor } = ctx.input;
        const after = cursor === undefined ? 0 : Number(cursor);
        if (!Number.isSafeInteger(after) || after < 0) throw badRequest('invalid_parameter', `"cursor" must be a nextCursor from an earlier page, got "${cursor!.slice(0, 40)}"`);
        const turns = await store.readTurns(agentId, threadKey, after, limit + 1);
        const page = turns.slice(0, limit);
        const nextCursor = turns.length > limit ? String(page[page.length - 1].seq) : undefined;
        sendJson(ctx.res, 200, { ...threadJson(thread), turns: page.map(turnJson), ...(nextCursor ? { nextCursor } : {}) });
      },
      'readThread',
    ),
    route(api.deleteThread, async (ctx) => {
      const { agentId, threadKey } = ctx.params;
      if (!(await store.deleteThread(agentId, threadKey))) throw notFound('thread_not_found', `agent "${agentId}" has no conversation "${threadKey}" (already deleted)`);
      sendEmpty(ctx.res, 204);
    }),
    route(api.setTitle, async (ctx) => {
      const { agentId, threadKey } = ctx.params;
      const { title } = await ctx.json();
      if (!(await store.setTitle(agentId, threadKey, title))) throw notFound('thread_not_found', `agent "${agentId}" has no conversation "${threadKey}" to title`);
      sendEmpty(ctx.res, 204);
    }),
    route(api.listMemories, async (ctx) => {
      const memories = await store.listMemories(ctx.params.agentId, ctx.params.userId);
      sendJson(
        ctx.res,
        200,
        `{"memories":[${memories
          .map((m) => `{"name":${JSON.stringify(m.name)},"version":${m.version},"createdAt":"${iso(m.createdAt)}","updatedAt":"${iso(m.updatedAt)}","content":${m.content}}`)
          .join(',')}]}`,
      );
    }),
    route(api.putMemory, async (ctx) => {
      const { agentId, userId } = ctx.params;
      const { name } = ctx.input;
      const expected = objectVersionHeader(ctx.req.headers['x-object-version']);
      const content = memoryContent(await ctx.bytes());
      const outcome = await store.putMemory(agentId, userId, name, content, expected);
      if (!outcome.ok) throw conflict('version_conflict', `memory "${name}" of user "${userId}": ${outcome.conflict}`);
      sendJson(ctx.res, outcome.created ? 201 : 200, { name, version: outcome.version }, { 'x-object-version': outcome.version });
    }),
    route(api.deleteMemory, async (ctx) => {
      const { agentId, userId } = ctx.params;
      const { name } = ctx.input;
      const outcome = await store.deleteMemory(agentId, userId, name, objectVersionHeader(ctx.req.headers['x-object-version']));
      if (!outcome.ok) throw conflict('version_conflict', `memory "${name}" of user "${userId}": ${outcome.conflict}`);
      if (!outcome.deleted) throw notFound('memory_not_found', `user "${userId}" has no memory "${name}" (already deleted)`);
      sendEmpty(ctx.res, 204);
    }),
    route(
      api.search,
      async (ctx) => {
        const { query, userId, limit = 10 } = await ctx.json();
        const hits = await store.search(ctx.params.agentId, query, userId, Math.min(limit, 100));
        if (!hits) throw badRequest('invalid_field', '"query" has no word to search for');
        sendJson(ctx.res, 200, `{"hits":[${hits.map(hitJson).join(',')}]}`);
      },
      'search',
    ),
  ];
}

const iso = (ms: number): string => new Date(ms).toISOString();

function memoryContent(bytes: Buffer): string {
  if (bytes.length === 0) throw badRequest('missing_body', 'a memory is a JSON value in the request body; the body is empty');
  return JSON.stringify(parseJsonText(bytes.toString('utf8'), 'the memory'));
}

function threadCursor(cursor: string | undefined): { updatedAt: number; threadKey: string } | undefined {
  if (cursor === undefined) return undefined;
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
