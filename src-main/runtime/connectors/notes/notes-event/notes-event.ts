import { activationOf } from '../../../core/activation.ts';
import { isTrue } from '../../../core/cel.ts';
import { implementBlock } from '../../../core/component.ts';
import { FlowError } from '../../../core/errors.ts';
import { isRawContent } from '../../../core/message.ts';
import { isObject } from '../notes-api-client.ts';
import { notesEventDef } from './notes-event.def.ts';

/** The flat shape of spec 3 §2.2; fields the event lacks are null rather than missing. */
export interface NotesEvent {
  type: string;
  entityId: unknown;
  entityType: unknown;
  workspaceId: unknown;
  timestamp: unknown;
  raw: Record<string, unknown>;
}

export const notesEvent = implementBlock(notesEventDef, (s) => {
  const allowed = s.eventTypes ? new Set(s.eventTypes) : undefined;
  return {
    process(msg) {
      const payload = payloadOf(msg.body);
      if (isHandshake(payload)) return null;
      if (typeof payload.type !== 'string') throw new FlowError('notes-event expects a notes webhook event with a "type"; got a body without one', { status: 400 });
      if (allowed && !allowed.has(payload.type)) return null;
      const entity = isObject(payload.entity) ? payload.entity : {};
      const event: NotesEvent = {
        type: payload.type,
        entityId: entity.id ?? null,
        entityType: entity.type ?? null,
        workspaceId: payload.workspace_id ?? null,
        timestamp: payload.timestamp ?? null,
        raw: payload,
      };
      msg.body = event;
      if (s.filter && !isTrue(s.filter.evaluate(activationOf(msg)))) return null;
      return msg;
    },
  };
});

/** The event as JSON; raw content (a source with `rawBody: true` and no verify step) is parsed. */
function payloadOf(body: unknown): Record<string, unknown> {
  let value = body;
  if (isRawContent(body)) {
    const text = typeof body.rawData === 'string' ? body.rawData : Buffer.from(body.rawData).toString('utf8');
    try {
      value = JSON.parse(text);
    } catch {
      throw new FlowError('notes-event expects a JSON webhook event; the body is not JSON', { status: 400 });
    }
  }
  if (!isObject(value)) throw new FlowError('notes-event expects a JSON object webhook event', { status: 400 });
  return value;
}

function isHandshake(payload: Record<string, unknown>): boolean {
  return typeof payload.verification_token === 'string' && payload.type === undefined;
}
