import type { QueueTimelineEvent, TopicTimelineEvent } from '../../../shared/platform-views.ts';

/** What a queue event means, in a few words: who got it, which delivery, why it came again. */
export function queueEventLabel(e: QueueTimelineEvent): string {
  switch (e.action) {
    case 'publish':
      return e.groups && e.groups.length > 0 ? `to ${e.groups.join(', ')}` : 'no consumer group yet: the first one takes it';
    case 'request':
      return `request, reply to ${e.replyTo ?? '?'}`;
    case 'deliver':
      return `delivery #${e.deliveryCount ?? 1}`;
    case 'redeliver':
      return `delivery #${e.deliveryCount ?? '?'} · ${e.redelivery ?? 'again'}`;
    case 'nack':
      return e.delaySeconds ? `failed · comes again in ${formatSeconds(e.delaySeconds)}` : 'failed · comes again now';
    case 'ack':
      return 'done';
    case 'reply':
      return `${e.outcome ?? 'replied'}${e.requestMessageId ? ` · answers ${shortId(e.requestMessageId)}` : ''}`;
    case 'purge':
      return `${e.count ?? 0} message${e.count === 1 ? '' : 's'} removed${e.group !== undefined ? ` from ${e.group || 'unclaimed'}` : ''}`;
  }
}

export function topicEventLabel(e: TopicTimelineEvent): string {
  switch (e.action) {
    case 'publish':
      return e.body && e.body.kind !== 'secret' && e.body.kind !== 'binary' ? oneLine(e.body.text) : '';
    case 'deliver':
      return `${e.messageIds?.length ?? 0} message${e.messageIds?.length === 1 ? '' : 's'} to ${shortId(e.subscriptionId ?? '')}`;
    case 'ack':
      return `${shortId(e.subscriptionId ?? '')} at ${e.cursor}`;
    default:
      return shortId(e.subscriptionId ?? '');
  }
}

/** The first 8 characters of an id (and the tail of a subscription id), enough to tell them apart on screen. */
export function shortId(id: string): string {
  if (id.startsWith('sub-')) return `sub-${id.slice(4, 12)}`;
  return id.length > 8 ? id.slice(0, 8) : id;
}

export function formatSeconds(s: number): string {
  return s >= 60 && s % 60 === 0 ? `${s / 60} min` : `${s} s`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}
