import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The dependency direction of ARCHITECTURE.md is a lint rule; these cases prove it bites.
const eslint = new ESLint({ cwd: process.cwd() });

async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the layering lint rule', () => {
  it.each([
    ['src-main/runtime/core/x.ts', "import '../../platform/index.ts';"],
    ['src-main/runtime/core/x.ts', "import '../../studio/run-manager.ts';"],
    ['src-main/platform/x.ts', "import '../runtime/core/runtime.ts';"],
    ['src-main/studio/x.ts', "import 'electron';"],
    ['shared/x.ts', "import 'node:fs';"],
    ['shared/x.ts', "import '../src-main/runtime/core/runtime.ts';"],
    ['src-renderer/x.ts', "import '../src-main/studio/x.ts';"],
    // The runtime's front door: callers outside runtime/ reach it through runtime/index.ts only.
    ['src-main/studio/x.ts', "import '../runtime/core/runtime.ts';"],
    ['src-main/cli/x.ts', "import '../runtime/core/load/definition-loader.ts';"],
  ])('refuses %s importing against the direction: %s', async (file, code) => {
    expect(await violations(file, code)).not.toEqual([]);
  });

  it.each([
    ['src-main/studio/x.ts', "import '../runtime/index.ts';\nimport '../platform/index.ts';"],
    ['src-main/runtime/core/x.ts', "import '../../../shared/studio-api.ts';"],
    ['src-renderer/x.ts', "import '../shared/studio-api.ts';"],
  ])('allows %s importing downwards', async (file, code) => {
    expect(await violations(file, code)).toEqual([]);
  });
});
