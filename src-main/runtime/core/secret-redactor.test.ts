import { describe, expect, it } from 'vitest';
import { SecretRedactor } from './logger.ts';

describe('the secret redactor', () => {
  const redactor = new SecretRedactor();
  redactor.add('sk-"live\\key');

  it('masks a secret deep in a value without changing the value it was given', () => {
    const event = { flow: 'f', output: { body: { items: [{ token: 'Bearer sk-"live\\key' }, { token: 'none' }] } } };
    const masked = redactor.redactValue(event) as typeof event;
    expect(masked.output.body.items[0].token).toBe('Bearer [redacted]');
    expect(masked.output.body.items[1]).toBe(event.output.body.items[1]);
    expect(event.output.body.items[0].token).toBe('Bearer sk-"live\\key');
  });

  it('gives a value holding no secret back as is, allocating nothing', () => {
    const event = { flow: 'f', output: { body: { items: [1, 2, { a: 'b' }] } } };
    expect(redactor.redactValue(event)).toBe(event);
  });

  it('masks serialized JSON in the escaped spelling of the secret too, keeping it valid JSON', () => {
    const text = JSON.stringify([{ token: 'sk-"live\\key' }]);
    expect(JSON.parse(redactor.redactJson(text)!)).toEqual([{ token: '[redacted]' }]);
  });
});
