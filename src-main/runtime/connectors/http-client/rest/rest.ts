import { activationOf } from '../../../core/activation.ts';
import { implementBlock } from '../../../core/component.ts';
import type { HttpClientConnector } from '../http-client.ts';
import { renderBody, renderMap, withQuery } from '../request-rendering.ts';
import { sendAndFold } from '../response-folding.ts';
import { restDef } from './rest.def.ts';

/** The `rest` block (spec 2 §2.9): a fixed method and path, query, headers and body from CEL. */
export const rest = implementBlock(restDef, (s, ctx) => {
  const query = Object.entries(s.query ?? {});
  const headers = Object.entries(s.headers ?? {});
  const options = { statusVar: s.statusVar, failOnError: s.failOnError };
  const path = s.path ?? '';
  // Looked up on first use: a connector that failed to load is reported once, at its own place.
  let client: HttpClientConnector | undefined;
  return {
    async process(msg, run) {
      client ??= ctx.connector<HttpClientConnector>(s.connector);
      const act = activationOf(msg);
      const requestHeaders = renderMap(headers.map(([name, expr]) => [name, expr.evaluate(act)]));
      const requestPath = query.length ? withQuery(path, renderMap(query.map(([name, expr]) => [name, expr.evaluate(act)]))) : path;
      const body = s.body ? renderBody(s.body.evaluate(act), s.bodyType, requestHeaders) : undefined;
      return sendAndFold(client, { method: s.method, path: requestPath, headers: requestHeaders, body }, msg, options, run);
    },
  };
}, (s) => (s.bodyType === 'multipart' && s.body === undefined ? ['bodyType multipart needs body: a map of parts'] : []));
