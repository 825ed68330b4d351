import { describe, expect, it } from 'vitest';
import { readEnvDeclarations } from './env-declarations.ts';

describe('reading env: declarations without validating flows', () => {
  it('gives each declared variable with its fields and the line of its name', () => {
    const text = 'env:\n  API_URL:\n    description: Where orders go\n    default: http://localhost\n  API_TOKEN: {required: true, secret: true}\nflows: {}\n';
    expect(readEnvDeclarations('orders.yaml', text)).toEqual({
      variables: [
        { name: 'API_URL', description: 'Where orders go', required: false, secret: false, default: 'http://localhost', declaredIn: 'orders.yaml', line: 2 },
        { name: 'API_TOKEN', required: true, secret: true, declaredIn: 'orders.yaml', line: 5 },
      ],
    });
  });

  it('has no variables without an env: mapping, and reports YAML that does not parse with its place', () => {
    expect(readEnvDeclarations('a.yaml', 'flows: {}\n')).toEqual({ variables: [] });
    expect(readEnvDeclarations('a.yaml', 'env:\n  A: [1, 2\n')).toMatchObject({ yamlError: { line: expect.any(Number), col: expect.any(Number) } });
  });
});
