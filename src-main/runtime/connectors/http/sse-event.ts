import { activationOf } from '../../core/activation.ts';
import { Halt, implementBlock, type BuildContext, type StepResult } from '../../core/component.ts';
import { errorMessage, FlowError } from '../../core/errors.ts';
import type { Message } from '../../core/message.ts';
import { HttpConnector } from './http.ts';
import { frameData, hasLineBreak, sseFrame } from './sse-frame.ts';
import { parseStreamAddress } from './sse-registry.ts';
import type { SseStream } from './sse-stream.ts';
import { sseEventDef } from './sse-event.def.ts';

const DEFAULT_STREAM_VAR = 'sseStream';

/**
 * Writes one frame to a caller's event stream (spec 2 §2.7). Wiring mistakes (no address, a
 * connector that is not there) always fail; a stream nobody listens to any more goes to ifClosed.
 */
export const sseEvent = implementBlock(
  sseEventDef,
  (s, ctx) => {
    // Unset, the stream is the variable this flow's own SSE route publishes the address in.
    const streamVar = s.stream === undefined ? routeStreamVar(ctx.flowSource) : undefined;
    const streamSource = s.stream?.source ?? `vars.${streamVar}`;
    const writes = s.event !== undefined || s.data !== undefined;
    const event = s.event || undefined;

    const closedStream = (msg: Message, address: string): StepResult => {
      if (s.ifClosed === 'ignore') return msg;
      if (s.ifClosed === 'stop') return new Halt(msg);
      throw new FlowError(`the event stream ${address} has ended (client gone, stream expired, or it lives on another replica)`);
    };

    return {
      async process(msg) {
        const act = activationOf(msg);
        const address = s.stream === undefined ? msg.vars[streamVar!] : await evaluateAddress(s.stream.evaluate, act);
        if (typeof address !== 'string' || address === '') {
          throw new FlowError(
            `sse-event has no stream address: ${streamSource} is ${address === undefined ? 'not set' : 'not a string'}; put the block in a flow whose http source has sse.enabled, or pass the address on`,
          );
        }
        const stream = findStream(ctx, address, s.connector);
        // An expression may wait (a secret or template read the first time): evaluate resolves to its value.
        const payload = s.data ? await s.data.evaluate(act) : msg.body;
        const frame = writes ? sseFrame(event, frameData(payload)) : undefined;
        if (stream === undefined || stream.state === 'closed') return closedStream(msg, address);
        // Run by the error chain: this block, not the connector's error frame, answers the failure.
        if (msg.error !== undefined) stream.errorHandled = true;
        if (frame !== undefined && !(await stream.send(frame, msg))) return closedStream(msg, address);
        if (s.close) stream.close(msg);
        return s.stop ? new Halt(msg) : msg;
      },
    };
  },
  (s) => (hasLineBreak(s.event) ? ['event must not contain a line break'] : []),
);

/** `sse.streamVar` of an http source, or the default `sseStream`. */
function routeStreamVar(source: Readonly<Record<string, unknown>> | undefined): string {
  const sse = source?.type === 'http' ? source.sse : undefined;
  const streamVar = typeof sse === 'object' && sse !== null ? (sse as Record<string, unknown>).streamVar : undefined;
  return typeof streamVar === 'string' && streamVar !== '' ? streamVar : DEFAULT_STREAM_VAR;
}

async function evaluateAddress(evaluate: (act: Record<string, unknown>) => unknown, act: Record<string, unknown>): Promise<unknown> {
  try {
    return await evaluate(act);
  } catch (err) {
    throw new FlowError(`sse-event stream: ${errorMessage(err)}`);
  }
}

/** The stream an address names, or undefined when nobody listens there (any more). */
function findStream(ctx: BuildContext, address: string, defaultConnector: string): SseStream | undefined {
  const { connector: named, id } = parseStreamAddress(address);
  const name = named ?? defaultConnector;
  let connector: unknown;
  try {
    connector = ctx.connector(name);
  } catch {
    throw new FlowError(`sse-event: stream address "${address}" names connector "${name}", which this definition does not declare`);
  }
  if (!(connector instanceof HttpConnector)) throw new FlowError(`sse-event: connector "${name}" is not an http connector`);
  return connector.streams.get(id);
}
