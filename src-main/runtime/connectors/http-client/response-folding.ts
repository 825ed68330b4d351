import { FlowError } from '../../core/errors.ts';
import type { Message } from '../../core/message.ts';
import type { RunContext } from '../../core/engine/chain.ts';
import type { HttpClientConnector, InboundResponse, OutboundRequest } from './http-client.ts';

export interface FoldOptions {
  statusVar: string;
  failOnError: boolean;
}

/**
 * Sends the request and folds the response into the message (spec 2 §2.9): the status into
 * `statusVar`, JSON into `body`, anything else as raw content with its Content-Type, an empty
 * response as null. With failOnError a 400+ status fails the flow (statusVar is set first, so an
 * error chain can read it) and the body is left as it was.
 */
export async function sendAndFold(client: HttpClientConnector, req: OutboundRequest, msg: Message, opts: FoldOptions, run?: RunContext): Promise<Message> {
  // The run goes along only while its trace takes spans, so an untraced call builds nothing.
  const res = await client.send(req, run?.trace?.spans ? { run, correlationId: msg.correlationId } : undefined);
  msg.vars[opts.statusVar] = res.status;
  if (opts.failOnError && res.status >= 400) {
    throw new FlowError(`http-client ${client.name}: ${req.method} ${pathOnly(req.path)} answered ${res.status}; set failOnError: false to handle it in the flow`, { status: 502 });
  }
  msg.body = bodyOf(res);
  return msg;
}

const JSON_TYPE = /^\s*(?:application\/json|[^;]*\+json|text\/json)\s*(?:;|$)/i;

export function bodyOf(res: InboundResponse): unknown {
  if (res.body.byteLength === 0) return null;
  const type = res.contentType;
  if (type !== undefined && JSON_TYPE.test(type)) {
    try {
      return JSON.parse(Buffer.from(res.body.buffer, res.body.byteOffset, res.body.byteLength).toString('utf8'));
    } catch {
      // A body labelled JSON that does not parse is still passed on, as the bytes it is.
    }
  }
  return { contentType: type ?? 'application/octet-stream', rawData: res.body };
}

function pathOnly(path: string): string {
  const i = path.indexOf('?');
  return i < 0 ? path || '/' : path.slice(0, i);
}
