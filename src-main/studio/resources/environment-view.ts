import { parseEnvFile } from '../../../shared/env-file.ts';
import type { EnvironmentVariable, ValueSource } from '../../../shared/resource-types.ts';
import type { DeclaredEnvVar } from './declared-env.ts';

/** A value from the container environment of a run: a binding, a managed or inherited variable. */
export interface ContainerValue {
  kind: 'binding' | 'secret' | 'managed' | 'process';
  value?: string;
  secret?: string;
  secretExists?: boolean;
}

export interface EnvFileText {
  /** The resource name, e.g. `config/prod.env`. */
  name: string;
  text: string;
}

export interface EnvironmentInputs {
  declared: DeclaredEnvVar[];
  /** Container values of a variable, strongest first. */
  container: (name: string) => ContainerValue[];
  /** Env resources in declared order. */
  envFiles: EnvFileText[];
  /** A studio run also counts its inherited environment; a deploy only bindings and frozen files. */
  mode: 'run' | 'deploy';
}

/**
 * Every declared variable with every source that has something for it and the one that wins, by
 * the precedence of spec 2 §4.4: the container environment, then env resources (a later file
 * overriding an earlier one, a later line an earlier line), then the declared default. An empty
 * value gives nothing at any level. Values of secret variables never leave this function.
 */
export function resolveEnvironment(inputs: EnvironmentInputs): { variables: EnvironmentVariable[]; problems: string[] } {
  const problems: string[] = [];
  const files = inputs.envFiles.map((f) => {
    const parsed = parseEnvFile(f.text);
    for (const p of parsed.problems) problems.push(`env resource "${f.name}" line ${p.line}: ${p.message}; the ${inputs.mode === 'run' ? 'run' : 'deployment'} will not start until it is fixed`);
    // Entries by variable name, so each declared variable looks up its lines directly.
    const byName = new Map<string, typeof parsed.entries>();
    for (const e of parsed.entries) byName.set(e.name, [...(byName.get(e.name) ?? []), e]);
    return { name: f.name, byName };
  });

  const variables = inputs.declared.map((d): EnvironmentVariable => {
    const sources: ValueSource[] = [];
    for (const c of inputs.container(d.name)) {
      if (c.kind === 'secret') sources.push({ kind: 'secret', secret: c.secret, secretExists: c.secretExists === true, gives: true, wins: false });
      else sources.push({ kind: c.kind, value: c.value ?? '', gives: (c.value ?? '') !== '', wins: false });
    }
    // Later files override earlier ones, so they are the stronger sources.
    for (const f of [...files].reverse()) {
      const entries = f.byName.get(d.name);
      if (!entries) continue;
      const given = entries.filter((e) => e.value !== '');
      const e = given.at(-1) ?? entries.at(-1)!;
      sources.push({ kind: 'env-resource', resource: f.name, file: `env/${f.name}`, line: e.line, value: e.value, gives: e.value !== '', wins: false });
    }
    if (d.default !== undefined) sources.push({ kind: 'default', value: d.default, gives: true, wins: false });

    const winner = sources.find((s) => s.gives);
    if (winner) winner.wins = true;
    if (d.secret) for (const s of sources) mask(s);
    const problem = problemOf(d, sources, inputs.mode);
    return {
      name: d.name,
      ...(d.description !== undefined ? { description: d.description } : {}),
      required: d.required,
      secret: d.secret,
      declaredIn: d.declaredIn,
      line: d.line,
      sources,
      effective: winner?.kind ?? 'missing',
      ...(problem ? { problem } : {}),
    };
  });
  return { variables, problems };
}

function mask(s: ValueSource): void {
  if (s.value === undefined) return;
  if (s.value !== '') s.masked = true;
  delete s.value;
}

function problemOf(d: DeclaredEnvVar, sources: ValueSource[], mode: 'run' | 'deploy'): string | undefined {
  const missingSecret = sources.find((s) => s.kind === 'secret' && !s.secretExists);
  if (missingSecret) return `bound to the secret "${missingSecret.secret}", which does not exist; create it in the Secrets panel or bind another`;
  if (mode === 'deploy' && d.secret && sources.some((s) => s.kind === 'binding' && s.gives)) {
    return `declared secret: bind it to a cluster secret by name, not to a literal value`;
  }
  if (d.required && !sources.some((s) => s.gives && s.kind !== 'default')) {
    const what = mode === 'run' ? 'no binding, studio environment variable or env resource gives it a value' : 'no binding and no frozen env resource gives it a value';
    return `required, but ${what} (a default does not count): the ${mode === 'run' ? 'run' : 'deploy'} is refused`;
  }
  return undefined;
}
