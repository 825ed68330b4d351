import { fileURLToPath } from 'node:url';
import { settingSchema } from '../../runtime/index.ts';
import { testFileSpec } from './test-file.def.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The JSON Schema of `*.test.yaml`, generated from test-file.def.ts; the studio's editor validates and completes with it. */
export function flowTestSchema(): Record<string, unknown> {
  const body = settingSchema({ type: 'object', description: 'Flow tests of the definitions beside this file (docs/testing.md).', fields: testFileSpec });
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'flow-studio/flow-test.schema.json', title: 'Flow tests', ...body };
}

/** Files generated from the test-file declaration; `flow-studio gen` writes them, a test fails when they are stale. */
export function flowTestArtifacts(): Array<{ path: string; content: string }> {
  return [{ path: `${root}shared/flow-test.schema.json`, content: JSON.stringify(flowTestSchema(), null, 2) + '\n' }];
}
