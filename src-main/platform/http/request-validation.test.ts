import { describe, expect, it } from 'vitest';
import { AppendTurnsRequest } from '../../../shared/platform-api/agent-memory.ts';
import { LeaseAcquireRequest } from '../../../shared/platform-api/leases.ts';
import { DeployRequest } from '../../../shared/platform-api/deployments.ts';
import { force, kind, threadLimit } from '../../../shared/platform-api/parameters.ts';
import { PublishRequest, QueueReceiveRequest } from '../../../shared/platform-api/queues.ts';
import { SecretWrite } from '../../../shared/platform-api/secrets.ts';
import { ApiError } from './api-error.ts';
import { validBody, validQuery } from './request-validation.ts';

const refusal = (f: () => unknown): { code: string; message: string } => {
  try {
    f();
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('accepted');
};

describe('request bodies checked against their route schema', () => {
  it.each([
    ['a missing required field', LeaseAcquireRequest, {}, 'missing_field', 'the request body needs "name": a non-empty string'],
    ['an empty required string', LeaseAcquireRequest, { name: '' }, 'missing_field', 'the request body needs "name": a non-empty string'],
    ['a wrong type, without repeating a string value', LeaseAcquireRequest, { name: 'n', holder: 5 }, 'invalid_field', '"holder" must be a string, got 5'],
    ['a string over its limit', LeaseAcquireRequest, { name: 'x'.repeat(1025) }, 'invalid_field', '"name" is 1025 characters long; the limit is 1024'],
    ['negative seconds', QueueReceiveRequest, { consumerGroup: 'g', waitSeconds: -1 }, 'invalid_field', '"waitSeconds" must be a number of seconds >= 0, got -1'],
    ['a fraction where an integer belongs', QueueReceiveRequest, { consumerGroup: 'g', maxMessages: 1.5 }, 'invalid_field', '"maxMessages" must be an integer >= 1, got 1.5'],
    ['a header value that is not a string', PublishRequest, { headers: { trace: 1 } }, 'invalid_field', '"headers.trace" must be a string, got 1'],
    ['a field the server assigns', AppendTurnsRequest, { turns: [{ role: 'user' }, { seq: 3 }] }, 'invalid_field', '"turns[1].seq" is refused: assigned by the server; leave it out'],
    ['too many entries', AppendTurnsRequest, { turns: Array.from({ length: 1001 }, () => ({})) }, 'invalid_field', '"turns" has 1001 entries; send at most 1000 at once'],
    ['a pattern, in words, with the code the field declares', DeployRequest, { integration: '-x', tag: 'v1' }, 'invalid_name', '"integration" must be 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit, got a string'],
    ['a wrong type where a declared code belongs', DeployRequest, { integration: 5, tag: 'v1' }, 'invalid_field', '"integration" must be 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit, got 5'],
    ['a value of none of the forms of a union', DeployRequest, { integration: 'a', tag: 'v1', bindings: { X: 1 } }, 'invalid_binding', '"bindings.X" must be {"value": "<literal>"} or {"secret": "<secret name>"} (or "" or null to leave it empty), got 1'],
    ['a write-only value of the wrong type, without repeating it', SecretWrite, { value: 1234 }, 'invalid_field', '"value" must be a non-empty string'],
  ])('refuses %s, naming the field', (_, schema, body, code, message) => {
    expect(refusal(() => validBody(schema, body))).toEqual({ code, message });
  });

  it('reads optional fields sent as null as absent, and leaves a maximum to the handler to cut', () => {
    expect(validBody(LeaseAcquireRequest, { name: 'n', holder: null })).toEqual({ name: 'n' });
    expect(validBody(QueueReceiveRequest, { consumerGroup: 'g', ackDeadlineSeconds: 999_999 })).toEqual({ consumerGroup: 'g', ackDeadlineSeconds: 999_999 });
  });
});

describe('query parameters checked against their declaration', () => {
  it('converts integers, cuts them at their maximum and refuses what is below the minimum', () => {
    expect(validQuery([threadLimit], new URLSearchParams('limit=7'))).toEqual({ limit: 7 });
    expect(validQuery([threadLimit], new URLSearchParams('limit=5000'))).toEqual({ limit: 100 });
    expect(validQuery([threadLimit], new URLSearchParams(''))).toEqual({ limit: undefined });
    expect(refusal(() => validQuery([threadLimit], new URLSearchParams('limit=0')))).toEqual({
      code: 'invalid_parameter',
      message: 'the query parameter "limit" must be an integer >= 1, got "0"',
    });
  });

  it('names a missing required parameter with an example, and the allowed values of an enum', () => {
    expect(refusal(() => validQuery([kind], new URLSearchParams('')))).toEqual({ code: 'missing_parameter', message: 'the query parameter "kind" is required, e.g. ?kind=template' });
    expect(refusal(() => validQuery([kind], new URLSearchParams('kind=other')))).toEqual({
      code: 'invalid_parameter',
      message: 'the query parameter "kind" must be one of env, template, got "other"',
    });
  });

  it('reads an empty optional parameter as absent, except an enum, where "" is not one of its values', () => {
    expect(validQuery([threadLimit], new URLSearchParams('limit='))).toEqual({ limit: undefined });
    expect(validQuery([force], new URLSearchParams(''))).toEqual({ force: undefined });
    expect(refusal(() => validQuery([force], new URLSearchParams('force=')))).toEqual({
      code: 'invalid_parameter',
      message: 'the query parameter "force" must be one of true, false, got ""',
    });
  });
});
