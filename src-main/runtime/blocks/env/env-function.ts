import type { CelFunctionDef } from '../../core/registry-types.ts';

/**
 * `env("NAME")`: the value of a variable declared under `env:`, for expressions that compare
 * against configuration, e.g. `vars.apiKey == env("API_KEY")`. String settings use `${NAME}`;
 * CEL cannot, so this is its way in. A secret variable stays masked in logs and traces.
 */
export const envFunction: CelFunctionDef = {
  signature: 'env(string): string',
  description: 'The value of a declared variable (env:), e.g. env("API_KEY"). Fails for a name with no value.',
  create(host) {
    return ((name: string): string => {
      const value = host.env(name);
      if (value === undefined) throw new Error(`env("${name}"): no declared variable with a value; declare it under env: and bind it`);
      return value;
    }) as never;
  },
};
