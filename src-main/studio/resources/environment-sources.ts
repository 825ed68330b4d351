import { readFileSync } from 'node:fs';
import type { Binding, EnvironmentTarget, EnvironmentView } from '../../../shared/resource-types.ts';
import type { Management } from '../../platform/index.ts';
import { StudioError } from '../studio-error.ts';
import type { Workspace } from '../workspace.ts';
import { readDeclaredEnv } from './declared-env.ts';
import { resolveEnvironment, type ContainerValue, type EnvFileText } from './environment-view.ts';
import { LOCAL_MANAGED_ENV } from './local-deployments.ts';
import { envResourceNames } from './working-copy.ts';

export interface EnvironmentContext {
  workspace: Workspace;
  /** Absent with a stand-in platform: secret bindings then count as missing. */
  management?: Management;
  /** The environment the studio's runs inherit. */
  processEnv: Record<string, string | undefined>;
  runBindings(integration: string): Record<string, Binding>;
}

/** The environment view of a studio run of the working copy, a deployment, or a tag being deployed. */
export async function environmentView(ctx: EnvironmentContext, target: EnvironmentTarget): Promise<EnvironmentView> {
  if (target?.kind === 'working-copy') return workingCopyView(ctx, target.integration, target, await secretNames(ctx.management));
  if (target?.kind === 'deployment') {
    const m = need(ctx);
    const d = await m.deployments.get(target.deployment);
    return tagView(m, d.integration, d.tag, d.bindings, target);
  }
  if (target?.kind === 'tag') return tagView(need(ctx), target.integration, target.tag, target.bindings ?? {}, target);
  throw new StudioError('the environment view needs a target: {kind: "working-copy", integration}, {kind: "deployment", deployment} or {kind: "tag", integration, tag, bindings}');
}

function workingCopyView(ctx: EnvironmentContext, integration: string, target: EnvironmentTarget, secrets: ReadonlySet<string>): EnvironmentView {
  const { workspace } = ctx;
  const definitions = workspace.summary(integration).definitionFiles.map((file) => ({ file, text: readFileSync(workspace.pathIn(integration, file), 'utf8') }));
  const names = envResourceNames(workspace, integration);
  const envFiles: EnvFileText[] = names.map((name) => ({ name, text: readFileSync(workspace.pathIn(integration, 'env', ...name.split('/')), 'utf8') }));
  const bindings = ctx.runBindings(integration);
  const declared = readDeclaredEnv(definitions);
  const resolved = resolveEnvironment({
    declared: declared.variables,
    envFiles,
    mode: 'run',
    container: (name) => {
      const out: ContainerValue[] = [];
      const b = bindings[name];
      if (b) out.push(bound(b, secrets));
      const inherited = ctx.processEnv[name];
      if (inherited !== undefined && inherited !== '') out.push({ kind: 'process', value: inherited });
      return out;
    },
  });
  return { target, envResources: names, variables: resolved.variables, problems: [...declared.problems, ...resolved.problems] };
}

async function tagView(m: Management, integration: string, tag: string, bindings: Record<string, Binding>, target: EnvironmentTarget): Promise<EnvironmentView> {
  const snapshot = await m.snapshots.getTag(integration, tag);
  const definitions = (await m.snapshots.definitions(snapshot.id)).map((d) => ({ file: d.file, text: d.content.toString('utf8') }));
  const names = snapshot.resources.filter((r) => r.kind === 'env').map((r) => r.name);
  const envFiles = await Promise.all(names.map(async (name) => ({ name, text: (await m.snapshots.resourceContent(snapshot.id, 'env', name))?.toString('utf8') ?? '' })));
  const secrets = await secretNames(m);
  const declared = readDeclaredEnv(definitions);
  const resolved = resolveEnvironment({
    declared: declared.variables,
    envFiles,
    mode: 'deploy',
    container: (name) => {
      const out: ContainerValue[] = [];
      // The orchestrator's variables win over bindings (local-deployment.ts).
      const managed = LOCAL_MANAGED_ENV[name];
      if (managed !== undefined) out.push({ kind: 'managed', value: managed });
      const b = bindings[name];
      if (b) out.push(bound(b, secrets));
      return out;
    },
  });
  return { target, envResources: names, variables: resolved.variables, problems: [...declared.problems, ...resolved.problems] };
}

/** The names of the cluster secrets that exist (none without a platform): a secret binding to another counts as missing. */
async function secretNames(m: Management | undefined): Promise<ReadonlySet<string>> {
  return new Set(m ? (await m.secrets.list()).map((s) => s.name) : []);
}

function bound(b: Binding, secrets: ReadonlySet<string>): ContainerValue {
  if ('secret' in b) return { kind: 'secret', secret: b.secret, secretExists: secrets.has(b.secret) };
  return { kind: 'binding', value: b.value };
}

function need(ctx: EnvironmentContext): Management {
  if (!ctx.management) throw new Error('tags and deployments need the embedded platform, and this studio runs without one');
  return ctx.management;
}
