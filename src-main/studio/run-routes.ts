import type { RouteInfo } from '../../shared/studio-api.ts';
import { type RuntimeDescription } from '../runtime/index.ts';

/**
 * The routes a started runtime serves, read from what its components describe: an http connector
 * gives its `url` (and may list `routes`), a route source gives its `path` and `methods` (and may
 * give its own `url`). Unknown shapes are skipped rather than guessed at.
 */
export function routesOf(description: RuntimeDescription): RouteInfo[] {
  const routes = new Map<string, RouteInfo>();
  const add = (r: RouteInfo): void => {
    routes.set(`${r.flow} ${r.url}`, r);
  };
  const connectorUrls = description.connectors.map((c) => stringField(c.details, 'url')).filter((u): u is string => u !== undefined);

  for (const c of description.connectors) {
    const base = stringField(c.details, 'url');
    const listed = c.details?.routes;
    if (!base || !Array.isArray(listed)) continue;
    for (const entry of listed) {
      const r = typeof entry === 'string' ? { path: entry } : isRecord(entry) ? entry : undefined;
      const path = r ? stringField(r, 'path') : undefined;
      if (!r || !path) continue;
      add({ flow: stringField(r, 'flow') ?? '', path, methods: stringList(r.methods), url: stringField(r, 'url') ?? join(base, path) });
    }
  }
  for (const f of description.flows) {
    const path = stringField(f.details, 'path');
    if (!path) continue;
    const url = stringField(f.details, 'url') ?? (connectorUrls.length === 1 ? join(connectorUrls[0], path) : undefined);
    if (!url) continue;
    // A connector's listing may lack the flow name; the source's own entry knows it.
    for (const [key, r] of routes) if (r.url === url && r.flow === '') routes.delete(key);
    add({ flow: f.name, path, methods: stringList(f.details?.methods), url });
  }
  return [...routes.values()].sort((a, b) => a.url.localeCompare(b.url));
}

function join(base: string, path: string): string {
  return base.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringField(obj: Record<string, unknown> | undefined, key: string): string | undefined {
  const v = obj?.[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((m): m is string => typeof m === 'string') : [];
}
