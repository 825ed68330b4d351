import type { CelFunctionDef } from '../../core/registry-types.ts';
import { templateOf } from './template-resources.ts';
import { activationFromMap, type CompiledTemplate } from './template-text.ts';

const render = (t: CompiledTemplate | Promise<CompiledTemplate>, data: unknown): string | Promise<string> =>
  t instanceof Promise ? t.then((c) => c.render(activationFromMap(data))) : t.render(activationFromMap(data));

/**
 * `templateResource("name", {"body": body, "vars": vars})`: a template resource rendered with
 * the names of the map. Calls with a literal name are read before the flows start, so they
 * answer synchronously in any setting.
 */
export const templateResourceFunction: CelFunctionDef = {
  signature: 'templateResource(string, map): string',
  description: 'Renders the template resource with this name; the map’s keys are the names its {{ }} expressions see.',
  create: (host) => ((name: string, data: unknown) => render(templateOf(host, name), data)) as never,
  async prefetch(host, calls) {
    // A template that cannot be read now fails the step that uses it, with the reason then.
    await Promise.all(calls.map(async ([name]) => templateOf(host, name)).map((p) => p.catch(() => undefined)));
  },
};

/** The one-argument form, for templates that need no data. */
export const templateResourcePlainFunction: CelFunctionDef = {
  signature: 'templateResource(string): string',
  description: 'Renders the template resource with this name, with no names in scope.',
  create: (host) => ((name: string) => render(templateOf(host, name), {})) as never,
  prefetch: templateResourceFunction.prefetch,
};
