import { describe, expect, it } from 'vitest';
import { StudioCallError, studioErrorKindOf } from './studio-errors.ts';

describe('the kind of a failed studio call', () => {
  it('is shown in the message a person reads, except for a plain user error', () => {
    expect(new StudioCallError('user', 'a name is letters and digits').message).toBe('a name is letters and digits');
    expect(new StudioCallError('conflict', '"a.yaml" already exists').message).toBe('Conflict: "a.yaml" already exists');
    expect(new StudioCallError('not-found', 'no file "a.yaml"').message).toBe('Not found: no file "a.yaml"');
    expect(new StudioCallError('internal', 'boom').message).toBe('Internal error (logged by the studio): boom');
  });

  it('is read back from the error, or from its message alone after the contextBridge copied only that', () => {
    for (const kind of ['user', 'conflict', 'not-found', 'internal'] as const) {
      const err = new StudioCallError(kind, 'reason');
      expect(studioErrorKindOf(err)).toBe(kind);
      expect(studioErrorKindOf(new Error(err.message))).toBe(kind);
    }
    expect(studioErrorKindOf('anything else')).toBe('user');
  });
});
