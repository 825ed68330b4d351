import { parse } from 'yaml';

/** What the tag's http connectors mean for the pods: a readiness probe, and what a Service cannot reach. */
export interface TagHttpServing {
  /** Some http connector listens on HTTP_PORT (the container port 8080) on every interface. */
  servesHttpPort: boolean;
  /** One line per connector a Service in front of the pods could not reach. */
  warnings: string[];
}

const ANY_INTERFACE = new Set(['0.0.0.0', '::', '${HTTP_HOST}']);

/**
 * Reads the `connectors:` of the tag's definitions. An http connector without `host:` and
 * `port:` (or with `${HTTP_HOST}` / `${HTTP_PORT}`) serves the container port; one pinned to
 * 127.0.0.1 or to another port (the studio's `port: 0`) answers only inside the pod.
 */
export function tagHttpServing(definitions: Array<{ file: string; content: Buffer }>): TagHttpServing {
  const result: TagHttpServing = { servesHttpPort: false, warnings: [] };
  for (const { file, content } of definitions) {
    let doc: unknown;
    try {
      doc = parse(content.toString('utf8'));
    } catch {
      continue; // a tag holds definitions that loaded; nothing to say about one that does not parse
    }
    const connectors = (doc as { connectors?: unknown } | null)?.connectors;
    if (!connectors || typeof connectors !== 'object') continue;
    for (const [name, c] of Object.entries(connectors as Record<string, { type?: unknown; host?: unknown; port?: unknown } | null>)) {
      if (c?.type !== 'http') continue;
      const host = c.host === undefined ? undefined : String(c.host);
      const port = c.port === undefined ? undefined : String(c.port);
      const onAnyInterface = host === undefined || ANY_INTERFACE.has(host);
      const onHttpPort = port === undefined || port === '${HTTP_PORT}' || port === '8080';
      if (!onAnyInterface) {
        result.warnings.push(`${file} connectors.${name} binds host ${host}: a Service cannot reach its routes; remove host: so it binds HTTP_HOST (0.0.0.0)`);
      }
      if (!onHttpPort) {
        result.warnings.push(`${file} connectors.${name} listens on port ${port}, not the container port 8080; remove port: so it listens on HTTP_PORT`);
      }
      if (onAnyInterface && onHttpPort) result.servesHttpPort = true;
    }
  }
  return result;
}
