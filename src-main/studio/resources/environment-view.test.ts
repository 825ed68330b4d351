import { describe, expect, it } from 'vitest';
import type { DeclaredEnvVar } from './declared-env.ts';
import { resolveEnvironment, type ContainerValue } from './environment-view.ts';

const variable = (name: string, extra: Partial<DeclaredEnvVar> = {}): DeclaredEnvVar => ({ name, required: false, secret: false, declaredIn: 'orders.yaml', line: 2, ...extra });

describe('the environment view', () => {
  it('takes a value from an env resource with its file and line when nothing else gives one', () => {
    const { variables } = resolveEnvironment({
      declared: [variable('GREETING', { default: 'hi' })],
      container: () => [],
      envFiles: [{ name: 'local.env', text: '# greeting\nGREETING=from-file\n' }],
      mode: 'run',
    });
    expect(variables[0].effective).toBe('env-resource');
    expect(variables[0].sources).toEqual([
      { kind: 'env-resource', resource: 'local.env', file: 'env/local.env', line: 2, value: 'from-file', gives: true, wins: true },
      { kind: 'default', value: 'hi', gives: true, wins: false },
    ]);
  });

  it('lets a binding win over env resources, a later env file over an earlier one, and an empty binding give nothing', () => {
    const container = (name: string): ContainerValue[] => (name === 'A' ? [{ kind: 'binding', value: 'bound' }] : name === 'B' ? [{ kind: 'binding', value: '' }] : []);
    const { variables } = resolveEnvironment({
      declared: [variable('A'), variable('B')],
      container,
      envFiles: [
        { name: 'base.env', text: 'A=base\nB=base\n' },
        { name: 'prod.env', text: 'B=prod\nB=\n' },
      ],
      mode: 'deploy',
    });
    const [a, b] = variables;
    expect(a.effective).toBe('binding');
    expect(a.sources.map((s) => [s.kind, s.wins])).toEqual([
      ['binding', true],
      ['env-resource', false],
    ]);
    expect(b.effective).toBe('env-resource');
    expect(b.sources.find((s) => s.wins)).toMatchObject({ resource: 'prod.env', line: 1, value: 'prod' });
    expect(b.sources[0]).toMatchObject({ kind: 'binding', gives: false, wins: false });
  });

  it('never hands out the value of a secret variable, wherever it comes from', () => {
    const { variables } = resolveEnvironment({
      declared: [variable('TOKEN', { secret: true, default: 'dev-token' })],
      container: () => [{ kind: 'process', value: 'sk-live-123' }],
      envFiles: [{ name: 'local.env', text: 'TOKEN=sk-file-456\n' }],
      mode: 'run',
    });
    expect(JSON.stringify(variables)).not.toMatch(/sk-live-123|sk-file-456|dev-token/);
    expect(variables[0].sources.every((s) => s.masked === true && s.value === undefined)).toBe(true);
  });

  it('flags a required variable that only a default would satisfy, and a binding to a missing secret', () => {
    const { variables } = resolveEnvironment({
      declared: [variable('URL', { required: true, default: 'http://x' }), variable('TOKEN', { secret: true })],
      container: (name) => (name === 'TOKEN' ? [{ kind: 'secret', secret: 'gone', secretExists: false }] : []),
      envFiles: [],
      mode: 'deploy',
    });
    expect(variables[0].problem).toBe('required, but no binding and no frozen env resource gives it a value (a default does not count): the deploy is refused');
    expect(variables[0].effective).toBe('default');
    expect(variables[1].problem).toMatch(/secret "gone", which does not exist/);
  });

  it('reports an env resource that is not a .env file, by line and never by value', () => {
    const { problems } = resolveEnvironment({ declared: [], container: () => [], envFiles: [{ name: 'bad.env', text: 'OK=1\nsk-oops\n' }], mode: 'run' });
    expect(problems).toEqual(['env resource "bad.env" line 2: expected NAME=value; the run will not start until it is fixed']);
  });
});
