import { describe, expect, it } from 'vitest';
import { startYaml } from '../../testing/load-yaml.ts';

describe('env() in CEL', () => {
  it('compares against a declared secret variable without the value reaching logs', async () => {
    const { runtime, logs } = await startYaml(
      `env:
  API_KEY: {secret: true, required: true}
flows:
  guarded:
    steps:
      - filter:
          condition: vars.key == env("API_KEY")
          reject: {status: 401, body: '{"error": "bad key " + vars.key}'}
      - log: {message: '"welcome, key " + env("API_KEY")'}
`,
      { API_KEY: 'k-0123456789' },
    );
    expect((await runtime.run('guarded', null, { key: 'k-0123456789' })).outcome).toBe('completed');
    const refused = await runtime.run('guarded', null, { key: 'wrong' });
    expect(refused.message.vars.httpStatus).toBe(401);
    await runtime.stop();
    expect(logs.some((l) => l.msg === 'welcome, key [redacted]')).toBe(true);
    expect(JSON.stringify(logs)).not.toContain('k-0123456789');
  });

  it('fails the step, naming the variable, when it has no value', async () => {
    const { runtime } = await startYaml(`flows:
  a:
    steps:
      - set: {body: 'env("NOPE")'}
`);
    const result = await runtime.run('a');
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toContain('env("NOPE")');
    await runtime.stop();
  });
});
