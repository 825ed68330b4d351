import { defineBlock } from '../../core/component.ts';

export const IF_CLOSED = ['stop', 'ignore', 'error'] as const;

export const sseEventDef = defineBlock({
  type: 'sse-event',
  summary: 'Writes a server-sent event frame to the caller of an SSE route.',
  description: `Writes to the stream whose address is in \`vars.sseStream\` (or \`stream\`); the address is an ordinary string, so a sub-flow or a queued job can write to the caller's connection when it is passed on. The first frame commits the response as 200 \`text/event-stream\` (with \`vars.httpStatus\` and the route's responseHeaders applied).

A block with neither \`event\` nor \`data\` writes nothing (a way to close without a final frame). A block wired wrongly (no address, unknown connector) always fails; nobody listening (client gone, stream expired, stream on another replica) is decided by \`ifClosed\`. Run in an error chain, it replaces the connector's own \`event: error\` frame.`,
  settings: {
    event: { type: 'string', description: '`event:` name; empty means an unnamed event (the browser’s onmessage).', example: 'progress' },
    data: { type: 'cel', description: 'Frame payload: a string as is, anything else as JSON; multi-line values become several `data:` lines. Default: the message body as JSON.', example: '{"percent": vars.done * 100.0 / vars.total}' },
    stream: {
      type: 'cel',
      default: 'vars.sseStream',
      defaultAppliedByComponent: true,
      description: 'Address of the stream to write to, `<connector>:<id>` or a bare id. Default: the variable the flow\'s own SSE route publishes the address in (its `sse.streamVar`, `vars.sseStream` unless set).',
    },
    connector: {
      type: 'string',
      connectorType: 'http',
      connectorNeededAtRunOnly: true,
      default: 'http',
      description: 'The http connector owning a bare stream id; a full address `<connector>:<id>` names its own, so this is needed only for bare ids. With several http connectors it may be left out; a bare id it cannot resolve fails at run time.',
    },
    close: { type: 'boolean', default: false, description: 'End the stream after this frame.' },
    stop: { type: 'boolean', default: false, description: 'Stop the flow (completed) after this frame.' },
    ifClosed: { type: 'string', enum: IF_CLOSED, default: 'stop', description: 'When the stream has already ended: stop the flow, ignore and continue, or fail.' },
  },
  example: `- sse-event:
    event: progress
    data: '{"step": vars.step}'`,
});
