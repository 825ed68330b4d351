import { describe, expect, it } from 'vitest';
import { queueEventLabel, shortId } from './timeline-labels.ts';

const base = { seq: 1, at: 0, subject: 'jobs', group: 'local', messageId: 'abcdef0123' };

describe('queue timeline labels', () => {
  it('says which delivery a message is on and why it came again', () => {
    expect(queueEventLabel({ ...base, action: 'deliver', deliveryCount: 1 })).toBe('delivery #1');
    expect(queueEventLabel({ ...base, action: 'redeliver', deliveryCount: 2, redelivery: 'after nack delay' })).toBe('delivery #2 · after nack delay');
    expect(queueEventLabel({ ...base, action: 'redeliver', deliveryCount: 3, redelivery: 'after ack deadline' })).toBe('delivery #3 · after ack deadline');
  });

  it('gives a nack its delay', () => {
    expect(queueEventLabel({ ...base, action: 'nack', delaySeconds: 5 })).toBe('failed · comes again in 5 s');
    expect(queueEventLabel({ ...base, action: 'nack', delaySeconds: 120 })).toBe('failed · comes again in 2 min');
    expect(queueEventLabel({ ...base, action: 'nack', delaySeconds: 0 })).toBe('failed · comes again now');
  });

  it('pairs a reply with its request', () => {
    expect(queueEventLabel({ ...base, action: 'reply', outcome: 'timeout', requestMessageId: 'abcdef0123' })).toBe('timeout · answers abcdef01');
  });

  it('shows who a publish went to', () => {
    expect(queueEventLabel({ ...base, action: 'publish', groups: ['billing', 'audit'] })).toBe('to billing, audit');
    expect(queueEventLabel({ ...base, action: 'publish', groups: [] })).toMatch(/no consumer group yet/);
  });

  it('shortens ids to what tells them apart', () => {
    expect(shortId('sub-0123456789abcdef')).toBe('sub-01234567');
    expect(shortId('1234')).toBe('1234');
  });
});
