import { existsSync, mkdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { IntegrationSummary } from '../../../shared/studio-api.ts';
import { parse } from 'yaml';
import { isFlowTestFile } from '../../runtime/index.ts';
import { StudioError } from '../studio-error.ts';
import { MANIFEST_FILE, type Workspace } from '../workspace.ts';

const DEFINITION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.ya?ml$/;
const INTEGRATION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function checkName(file: unknown): string {
  if (typeof file !== 'string' || !DEFINITION_NAME.test(file)) {
    throw new StudioError(`"${String(file)}" is not a definition file name; use letters, digits, ".", "_" or "-" ending in .yaml, e.g. "orders.yaml" (or "orders.test.yaml" for flow tests)`);
  }
  return file;
}

/** A starter definition that loads as is: one flow without a source, which flow-ref can call. */
export function starterDefinition(flowName: string): string {
  return [
    '# Ctrl+Space completes; the Blocks palette inserts steps.',
    'flows:',
    `  ${flowName}:`,
    '    description: What this flow does, for people reading it.',
    '    steps:',
    `      - log: {message: '"${flowName} ran for " + correlationID'}`,
    '',
  ].join('\n');
}

/** A starter flow test of the integration's first flow that loads as is (docs/testing.md has the rest). */
export function starterTest(flowName: string): string {
  return [
    '# A flow test: the Tests panel and `flow-studio test` run it. Ctrl+Space completes.',
    'tests:',
    `  ${flowName} completes:`,
    `    flow: ${flowName}`,
    '    input: {body: {}}',
    '    expect:',
    '      outcome: completed',
    '',
  ].join('\n');
}

function firstFlowName(workspace: Workspace, integration: string): string {
  for (const f of workspace.summary(integration).definitionFiles) {
    const doc = parseQuietly(readFileSync(workspace.pathIn(integration, f), 'utf8'));
    const flows = doc && typeof doc === 'object' ? (doc as { flows?: unknown }).flows : undefined;
    if (flows && typeof flows === 'object') {
      const [first] = Object.keys(flows);
      if (first) return first;
    }
  }
  return 'my-flow';
}

function parseQuietly(text: string): unknown {
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}

/** A flow name from the file name that no other definition file of the integration declares. */
function freshFlowName(workspace: Workspace, integration: string, file: string): string {
  const texts = workspace.summary(integration).definitionFiles.map((f) => readFileSync(workspace.pathIn(integration, f), 'utf8'));
  const base = file.replace(/\.ya?ml$/, '').replace(/[^A-Za-z0-9_-]+/g, '-') || 'flow';
  const taken = (name: string): boolean => texts.some((t) => new RegExp(`^\\s+${name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}:`, 'm').test(t));
  let name = base;
  for (let i = 2; taken(name); i++) name = `${base}-${i}`;
  return name;
}

/**
 * Creates, renames and deletes the definition files of an integration. Each change lands on disk
 * at once, so the workspace watcher tells every window and a running integration hot-reloads.
 */
export class DefinitionFiles {
  constructor(private readonly workspace: Workspace) {}

  createIntegration(id: string): IntegrationSummary {
    if (typeof id !== 'string' || !INTEGRATION_ID.test(id)) {
      throw new StudioError(`"${String(id)}" is not an integration name; use letters, digits, "_" or "-", e.g. "orders-api"`);
    }
    const dir = join(this.workspace.root, id);
    if (existsSync(dir)) throw StudioError.conflict(`the workspace already has a folder "${id}"; pick another name`);
    mkdirSync(dir);
    this.workspace.writeFile(id, MANIFEST_FILE, JSON.stringify({ name: id }, null, 2) + '\n');
    this.workspace.writeFile(id, 'flows.yaml', starterDefinition(id));
    return this.workspace.summary(id);
  }

  create(integration: string, file: string): IntegrationSummary {
    checkName(file);
    if (existsSync(this.workspace.pathIn(integration, file))) throw StudioError.conflict(`"${file}" already exists in "${integration}"`);
    const starter = isFlowTestFile(file) ? starterTest(firstFlowName(this.workspace, integration)) : starterDefinition(freshFlowName(this.workspace, integration, file));
    this.workspace.writeFile(integration, file, starter);
    return this.workspace.summary(integration);
  }

  rename(integration: string, from: string, to: string): IntegrationSummary {
    const source = this.workspace.pathIn(integration, checkName(from));
    const target = this.workspace.pathIn(integration, checkName(to));
    if (!existsSync(source)) throw StudioError.notFound(`no file "${from}" in integration "${integration}"`);
    if (from === to) return this.workspace.summary(integration);
    if (existsSync(target)) throw StudioError.conflict(`"${to}" already exists in "${integration}"; rename or delete it first`);
    renameSync(source, target);
    return this.workspace.summary(integration);
  }

  delete(integration: string, file: string): IntegrationSummary {
    const path = this.workspace.pathIn(integration, checkName(file));
    if (!existsSync(path)) throw StudioError.notFound(`no file "${file}" in integration "${integration}"`);
    unlinkSync(path);
    return this.workspace.summary(integration);
  }
}
