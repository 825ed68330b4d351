import { expect } from 'vitest';

/** `text` with each `[was, now]` replaced; each `was` must occur exactly once, so a test names the only lines an edit may change. */
export function changed(text: string, ...changes: Array<[string, string]>): string {
  let out = text;
  for (const [was, now] of changes) {
    expect(out.split(was).length - 1, `expected exactly one ${JSON.stringify(was)}`).toBe(1);
    out = out.replace(was, () => now);
  }
  return out;
}
