import { defineBlock } from '../../../core/component.ts';

export const notesEventDef = defineBlock({
  type: 'notes-event',
  summary: 'Normalizes a notes webhook event into a flat body and drops events outside the allowlist or filter.',
  description:
    'Replaces `body` with `{type, entityId, entityType, workspaceId, timestamp, raw}`: the event type, `entity.id`, `entity.type`, ' +
    '`workspace_id`, the event timestamp, and the untouched payload. Events whose type is not in `eventTypes`, or for which `filter` ' +
    'is not true, are dropped. A subscription handshake (`{verification_token}`, no event) is dropped too. Place it after `notes-verify-request`.',
  settings: {
    eventTypes: {
      type: 'list',
      description: 'Allowlist of event types; every type passes when unset.',
      items: { type: 'string', description: 'An event type, e.g. page.content_updated.' },
      example: ['page.created', 'page.content_updated'],
    },
    filter: { type: 'cel', description: 'Predicate over the normalized body; the event is dropped when it is not true.', example: 'body.entityType == "page"' },
  },
  example: `- notes-event:
    eventTypes: [page.content_updated]
    filter: body.workspaceId == "ws-1"`,
});
