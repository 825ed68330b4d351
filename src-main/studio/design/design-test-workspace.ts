import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workspace } from '../workspace.ts';

/** A workspace in a temporary folder holding the given integrations: `{ id: { file: text } }`. */
export function tempWorkspace(integrations: Record<string, Record<string, string>>): { workspace: Workspace; root: string; remove(): void } {
  const temp = mkdtempSync(join(tmpdir(), 'design-test-'));
  const root = join(temp, 'ws');
  for (const [id, files] of Object.entries(integrations)) {
    mkdirSync(join(root, id), { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(join(root, id, file), text);
  }
  mkdirSync(root, { recursive: true });
  return { workspace: Workspace.open(root), root, remove: () => rmSync(temp, { recursive: true, force: true }) };
}
