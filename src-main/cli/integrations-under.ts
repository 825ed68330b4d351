import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { discoverIntegrations } from '../runtime/index.ts';

/**
 * The integrations a path given to `run` or `validate` holds, refusing a path that holds none: a
 * wrong or empty folder (a volume the init container never filled) would otherwise run no flow
 * at all while looking healthy, or pass validation with nothing checked.
 */
export function integrationsUnder(path: string): string[][] {
  if (!existsSync(path)) throw new Error(`${resolve(path)} does not exist; give a definition file or an integration's folder`);
  const integrations = discoverIntegrations(path);
  if (integrations.length === 0) {
    throw new Error(
      `no flow definitions under ${resolve(path)}: an integration is a folder with its definitions (*.yaml, *.yml, not *.test.yaml) at its root, or a folder of such folders`,
    );
  }
  return integrations;
}
