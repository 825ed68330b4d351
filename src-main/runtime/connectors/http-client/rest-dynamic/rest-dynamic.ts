import { activationOf } from '../../../core/activation.ts';
import { implementBlock } from '../../../core/component.ts';
import type { HttpClientConnector } from '../http-client.ts';
import { renderBody, renderMap, withQuery } from '../request-rendering.ts';
import { sendAndFold } from '../response-folding.ts';
import { checkMethod, checkPath, RefusedRequest } from './request-guard.ts';
import { restDynamicDef, STANDARD_METHODS } from './rest-dynamic.def.ts';

/**
 * The `rest-dynamic` block (spec 2 §2.10): every part of the request comes from CEL per message,
 * and every guard runs before the request is sent, so a refused request never reaches the server.
 */
export const restDynamic = implementBlock(
  restDynamicDef,
  (s, ctx) => {
    const allowed: readonly string[] = s.allowMethods?.length ? s.allowMethods : STANDARD_METHODS;
    const prefix = s.pathPrefix ?? '';
    const options = { statusVar: s.statusVar, failOnError: s.failOnError };
    let client: HttpClientConnector | undefined;
    return {
      async process(msg, run) {
        client ??= ctx.connector<HttpClientConnector>(s.connector);
        const act = activationOf(msg);
        const method = checkMethod(s.method.evaluate(act), allowed);
        let path = checkPath(s.path.evaluate(act), prefix);
        if (s.query) path = withQuery(path, renderMap(Object.entries(mapOf(s.query.evaluate(act), 'query'))));
        const headers = s.headers ? renderMap(Object.entries(mapOf(s.headers.evaluate(act), 'headers'))) : {};
        const body = s.body ? renderBody(s.body.evaluate(act), s.bodyType, headers) : undefined;
        return sendAndFold(client, { method, path, headers, body }, msg, options, run);
      },
    };
  },
  (s) => (s.bodyType === 'multipart' && s.body === undefined ? ['bodyType multipart needs body: a map of parts'] : []),
);

function mapOf(value: unknown, what: string): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array) {
    throw new RefusedRequest(`${what} must evaluate to a map, got ${Array.isArray(value) ? 'a list' : typeof value}`);
  }
  return value as Record<string, unknown>;
}
