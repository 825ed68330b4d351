import type { ServerResponse } from 'node:http';
import { conflict, notFound, tooLarge } from '../http/api-error.ts';
import { sendBytes, sendEmpty, sendJson } from '../http/http-io.ts';
import { kvDelete, kvGet, kvPut } from '../../../shared/platform-api/kv.ts';
import { implement } from '../http/contract-route.ts';
import { objectVersionHeader } from '../http/headers-and-names.ts';
import type { Route } from '../http/router.ts';
import type { KvEntry } from '../store/kv-store.ts';
import type { PlatformContext } from './platform-context.ts';
import { runOf } from './run-of.ts';

/**
 * KV entries (§4.1, §3.5): opaque bytes under a namespace and a key that may contain slashes,
 * written with the X-Object-Version rules (0 or absent creates, positive must match).
 */
export function kvRoutes(p: PlatformContext): Route[] {
  const { kv, features, events } = p;
  const enabled = features.kv.supported;
  const maxValueBytes = features.kv.maxValueBytes;

  const binding = { capability: 'kv', enabled };
  const valueLimit = { maxBytes: maxValueBytes, refuse: (max: number) => tooLarge('value_too_large', `the value is larger than kv.maxValueBytes (${max} bytes); store less or split it`) };

  return [
    implement(kvGet, binding, async (ctx) => {
      const { namespace: ns } = ctx.params;
      const { key } = ctx.input;
      sendEntry(ctx.res, ns, key, await kv.get(ns, key));
    }),
    implement(kvPut, binding, async (ctx) => {
      const { namespace: ns } = ctx.params;
      const { key } = ctx.input;
      const expected = objectVersionHeader(ctx.req.headers['x-object-version']);
      const value = await ctx.bytes();
      // Answered once durable: the store commits it with the other writes of its turn (group commit).
      const outcome = await kv.put(ns, key, value, expected);
      if (!outcome.ok) throw conflict('version_conflict', `entry "${key}" in namespace "${ns}": ${outcome.conflict}`);
      if (events.active) {
        events.emit({ type: 'kv.put', at: p.clock.now(), namespace: ns, key, version: outcome.version, bytes: value.length, created: outcome.created, ...runOf(ctx.req) });
      }
      sendJson(ctx.res, outcome.created ? 201 : 200, `{"version":${outcome.version}}`, { 'x-object-version': outcome.version });
    }, valueLimit),
    implement(kvDelete, binding, async (ctx) => {
      const { namespace: ns } = ctx.params;
      const { key } = ctx.input;
      const outcome = await kv.delete(ns, key, objectVersionHeader(ctx.req.headers['x-object-version']));
      if (!outcome.ok) throw conflict('version_conflict', `entry "${key}" in namespace "${ns}": ${outcome.conflict}`);
      if (!outcome.deleted) throw notFound('entry_not_found', `no entry "${key}" in namespace "${ns}" (already absent: nothing to delete)`);
      if (events.active) events.emit({ type: 'kv.delete', at: p.clock.now(), namespace: ns, key, ...runOf(ctx.req) });
      sendEmpty(ctx.res, 204);
    }),
  ];
}

function sendEntry(res: ServerResponse, ns: string, key: string, entry: KvEntry | undefined): void {
  if (!entry) throw notFound('entry_not_found', `no entry "${key}" in namespace "${ns}"`);
  sendBytes(res, 200, entry.value, { 'x-object-version': entry.version });
}
