import { isMap, isScalar, type Node } from 'yaml';
import type { AnySourceImpl, Settings, SourceContext } from '../component.ts';
import { FlowRunner } from '../engine/flow-runner.ts';
import { errorMessage, type LoadProblem } from '../errors.ts';
import { leaderGatedSource } from '../../services/leader-gated-source.ts';
import { envEntrySpec, flowSpec, FLOW_SOURCE_KEY, TOP_LEVEL_KEYS } from './definition-format.ts';
import type { LoadedFlow } from './definition-loader.ts';
import type { DeclaredEnv } from './env-vars.ts';
import { buildContext, createProblem, keyOf, settingsContext, settingsFor, type Declared, type LoadState } from './load-state.ts';
import { suggest } from '../did-you-mean.ts';
import { loadSettings } from './settings-loader.ts';
import type { YamlFile } from './yaml-file.ts';

/**
 * The phases of loading a definition, in the order definition-loader.ts runs them. A rule that
 * spans settings belongs to the phase where everything it reads is known: a variable rule in
 * `loadEnv`, one between connectors in `loadConnectors`, one about flow-refs or leaders in
 * `loadFlows`, one between a source and its flow in `loadSources`.
 */

/** 1. Declarations: each file's top-level `env:`, `connectors:` and `flows:` entries, duplicates refused. */
export function readDeclarations(files: readonly YamlFile[], problems: LoadProblem[]): LoadState['declared'] {
  const declared: LoadState['declared'] = { env: [], connectors: [], flows: [] };
  for (const file of files) {
    problems.push(...file.syntaxProblems());
    const root = file.doc.contents as Node | null;
    if (root === null || root === undefined) continue;
    if (!isMap(root)) {
      problems.push({ location: file.at(root), path: '', message: 'a definition file is a mapping with env:, connectors: and flows:' });
      continue;
    }
    for (const pair of root.items) {
      const key = keyOf(pair);
      const target = key === 'env' ? declared.env : key === 'connectors' ? declared.connectors : key === 'flows' ? declared.flows : undefined;
      if (!target) {
        problems.push({ location: file.at(pair.key as Node), path: key, message: `unknown top-level key "${key}"${suggest(key, [...TOP_LEVEL_KEYS])}` });
        continue;
      }
      collect(file, pair.value as Node, key, target, problems);
    }
  }
  return declared;
}

/** 2. Env: each declared variable and its value (given, else its default); secrets taught to the redactor. */
export function loadEnv(st: LoadState): void {
  const { options, problems } = st;
  for (const d of st.declared.env) {
    const s = loadSettings(envEntrySpec, d.node, `env.${d.name}`, settingsContext(st, d.file)) as Settings<typeof envEntrySpec>;
    const decl: DeclaredEnv = {
      name: d.name,
      required: s.required,
      default: s.default,
      secret: s.secret,
      description: s.description,
      location: d.file.at(d.keyNode),
    };
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(d.name)) {
      problems.push({ location: decl.location, path: `env.${d.name}`, message: 'a variable name is letters, digits and _ and does not start with a digit' });
    }
    st.env.push(decl);
    const provided = options.env?.[d.name];
    if (provided !== undefined && provided !== '') st.envValues.set(d.name, provided);
    else if (decl.default !== undefined) st.envValues.set(d.name, decl.default);
    if (decl.secret) st.redactor.add(st.envValues.get(d.name));
    if (options.mode === 'run' && decl.required && (provided === undefined || provided === '')) {
      problems.push({
        location: decl.location,
        path: `env.${d.name}`,
        message: `required variable ${d.name} has no value; bind it (environment, env resource or secret) before running`,
      });
    }
  }
}

/**
 * 3. Connectors: every type first (so a setting naming a connector can be checked, or defaulted to
 * the only one of its type), then each created, not started, so blocks and sources can hold them.
 */
export function loadConnectors(st: LoadState): void {
  const { options, problems } = st;
  for (const d of st.declared.connectors) {
    const type = typeOf(d, 'connectors', options.registry.connectors, problems);
    if (type) st.connectorTypes.set(d.name, type);
  }
  for (const d of st.declared.connectors) {
    const type = st.connectorTypes.get(d.name);
    if (!type) continue;
    const impl = options.registry.connectors.get(type)!;
    const path = `connectors.${d.name}`;
    const settings = settingsFor(st, impl.def.settings, impl, d.node, path, d.file, ['type']);
    if (!settings) continue;
    try {
      const instance = impl.create(settings as never, buildContext(st, path));
      st.connectorByName.set(d.name, instance);
      st.connectors.push({ name: d.name, type, location: d.file.at(d.keyNode), instance });
    } catch (err) {
      createProblem(problems, { location: d.file.at(d.node), path, message: errorMessage(err) }, err);
    }
  }
}

/**
 * A flow whose `source:` is built in the last phase, once every flow exists. Without `flow` (its
 * steps or settings have problems) the source is only checked, so that one pass reports its
 * problems too (a connector it names that does not exist) instead of after the steps are fixed.
 */
export interface PendingSource {
  flow?: LoadedFlow;
  node: Node;
  decl: Declared;
}

/** 4. Flows: each flow's steps and runner (flow-ref finds every flow), and its leader key. */
export function loadFlows(st: LoadState): PendingSource[] {
  const pending: PendingSource[] = [];
  for (const d of st.declared.flows) {
    const path = `flows.${d.name}`;
    const settings = settingsFor(st, flowSpec, {}, d.node, path, d.file, [FLOW_SOURCE_KEY], d.name) as Settings<typeof flowSpec> | undefined;
    if (!settings) {
      const sourceNode = isMap(d.node) ? (d.node.get(FLOW_SOURCE_KEY, true) as Node | undefined) : undefined;
      if (sourceNode) pending.push({ node: sourceNode, decl: d });
      continue;
    }
    const runner = new FlowRunner({
      name: d.name,
      steps: settings.steps,
      onError: settings.onError,
      chains: st.chains,
      workers: settings.workers,
      buffer: settings.buffer,
      traces: st.traces,
      identity: st.identity,
    });
    const flow: LoadedFlow = { name: d.name, location: d.file.at(d.keyNode), file: d.file.file, runner };
    st.flows.set(d.name, flow);
    const sourceNode = isMap(d.node) ? (d.node.get(FLOW_SOURCE_KEY, true) as Node | undefined) : undefined;
    if (sourceNode) pending.push({ flow, node: sourceNode, decl: d });
    if (settings.leader) {
      // Replicas of one deployment elect per flow; another deployment's flow of the same name is not a rival.
      flow.leader = settings.leaderKey ?? `${st.identity.deploymentId}/${d.name}`;
      if (!sourceNode) st.problems.push({ location: d.file.at(d.keyNode), path: `${path}.leader`, message: 'leader: true elects the instance that runs the source, and this flow has no source' });
    }
  }
  return pending;
}

/** 5. Sources: each flow's source, gated by leader election where the flow asks for it. */
export function loadSources(st: LoadState, pending: readonly PendingSource[]): void {
  const { options, problems, services } = st;
  for (const { flow, node, decl } of pending) {
    const path = `flows.${decl.name}.source`;
    if (!isMap(node)) {
      problems.push({ location: decl.file.at(node), path, message: 'a source is a mapping with a type, e.g. {type: http, path: /orders}' });
      continue;
    }
    const typeNode = node.get('type', true) as Node | undefined;
    const type = isScalar(typeNode) ? String(typeNode.value) : undefined;
    const impl = type ? (options.registry.sources.get(type) as AnySourceImpl | undefined) : undefined;
    if (!type || !impl) {
      problems.push({
        location: decl.file.at(typeNode ?? node),
        path: `${path}.type`,
        message: type ? `unknown source type "${type}"${suggest(type, [...options.registry.sources.keys()])}` : `a source needs a type: one of ${[...options.registry.sources.keys()].join(', ')}`,
      });
      continue;
    }
    const settings = settingsFor(st, impl.def.settings, impl, node, path, decl.file, ['type'], decl.name);
    if (!settings || !flow) continue;
    const ctx: SourceContext = {
      ...buildContext(st, path, flow.name),
      flowName: flow.name,
      capacity: flow.runner.capacity,
      submit: (msg) => flow.runner.submit(msg),
      start: (msg) => flow.runner.start(msg),
      traces: st.traces,
      refused: (reason, correlationId, traced) => flow.runner.refused(reason, correlationId, traced),
    };
    try {
      flow.source = impl.create(settings as never, ctx);
      flow.sourceType = type;
      if (flow.leader) {
        const refusal = services.refusalAtLoad('leaderElection', 'leader: true');
        if (refusal) throw new Error(refusal);
        flow.source = leaderGatedSource(flow.source, { key: flow.leader, services, log: ctx.log });
      }
    } catch (err) {
      createProblem(problems, { location: decl.file.at(typeNode ?? node), path, message: errorMessage(err) }, err);
    }
  }
}

function collect(file: YamlFile, node: Node | null, section: string, into: Declared[], problems: LoadProblem[]): void {
  if (node === null || node === undefined) return;
  if (!isMap(node)) {
    problems.push({ location: file.at(node), path: section, message: `${section}: is a mapping of names to ${section === 'env' ? 'variable declarations' : section}` });
    return;
  }
  for (const pair of node.items) {
    const name = keyOf(pair);
    const prior = into.find((d) => d.name === name);
    if (prior) {
      const where = prior.file.at(prior.keyNode);
      problems.push({
        location: file.at(pair.key as Node),
        path: `${section}.${name}`,
        message: `"${name}" is declared twice; the other is at ${where.file}:${where.line}:${where.col}`,
      });
      continue;
    }
    into.push({ name, file, node: (pair.value ?? pair.key) as Node, keyNode: pair.key as Node });
  }
}

function typeOf(d: Declared, section: string, known: ReadonlyMap<string, unknown>, problems: LoadProblem[]): string | undefined {
  const node = d.node;
  const typeNode = isMap(node) ? (node.get('type', true) as Node | undefined) : undefined;
  const type = isScalar(typeNode) ? String(typeNode.value) : undefined;
  if (!type) {
    problems.push({ location: d.file.at(node), path: `${section}.${d.name}.type`, message: `needs a type: one of ${[...known.keys()].join(', ')}` });
    return undefined;
  }
  if (!known.has(type)) {
    problems.push({ location: d.file.at(typeNode), path: `${section}.${d.name}.type`, message: `unknown connector type "${type}"${suggest(type, [...known.keys()])}` });
    return undefined;
  }
  return type;
}
