import { isMap, isScalar, isSeq, type Node, type Pair, type YAMLMap } from 'yaml';
import { createCelEnvironment, type CelEnvironment } from '../cel.ts';
import type { AnyBlockImpl, AnySourceImpl, BuildContext, Connector, Source, SourceContext, Settings } from '../component.ts';
import { Chain, type FlowResult, type RunContext, type Step } from '../engine/chain.ts';
import { FlowRunner } from '../engine/flow-runner.ts';
import { errorMessage, LoadError, type LoadProblem, type SourceLocation } from '../errors.ts';
import { SecretRedactor, silentLogger, type Logger } from '../logger.ts';
import type { Message } from '../message.ts';
import type { ComponentRegistry } from '../registry-types.ts';
import type { RuntimeHost } from '../runtime-host.ts';
import type { RuntimeSandbox } from '../sandbox.ts';
import type { SettingsSpec } from '../setting-spec.ts';
import { TraceHub } from '../trace.ts';
import { ExchangeHub } from '../exchange-hub.ts';
import { noPlatformServices, type PlatformServices } from '../../services/platform-services.ts';
import { leaderGatedSource } from '../../services/leader-gated-source.ts';
import { CelPrefetch } from './cel-prefetch.ts';
import { envEntrySpec, flowSpec, FLOW_SOURCE_KEY, STEP_NAME_KEY, TOP_LEVEL_KEYS } from './definition-format.ts';
import type { DeclaredEnv } from './env-vars.ts';
import { loadSettings, problem, suggest, type SettingsLoadContext } from './settings-loader.ts';
import { YamlFile } from './yaml-file.ts';
import type { DefinitionText } from './integration-files.ts';

export interface LoadOptions {
  registry: ComponentRegistry;
  /**
   * `validate` checks everything that does not need variable values; `run` also requires every
   * required variable to have one.
   */
  mode: 'validate' | 'run';
  /** Variable values (process environment, env resources); defaults apply beneath them. */
  env?: Record<string, string | undefined>;
  services?: PlatformServices;
  identity?: { deploymentId: string; instanceId: string };
  log?: Logger;
  traces?: TraceHub;
  exchanges?: ExchangeHub;
  /** Learns the values of `secret: true` variables so logs, traces and errors never show them. */
  redactor?: SecretRedactor;
  /** Stand-ins for what the flows reach outside (flow tests, stubbed re-runs). */
  sandbox?: RuntimeSandbox;
}

export interface LoadedConnector {
  name: string;
  type: string;
  location: SourceLocation;
  instance: Connector;
}

export interface LoadedFlow {
  name: string;
  location: SourceLocation;
  file: string;
  runner: FlowRunner;
  sourceType?: string;
  source?: Source;
  /** The leader-election key when only the elected instance runs this flow's source. */
  leader?: string;
}

export interface LoadedDefinition {
  files: string[];
  env: DeclaredEnv[];
  envValues: Map<string, string>;
  connectors: LoadedConnector[];
  flows: Map<string, LoadedFlow>;
  host: RuntimeHost;
  traces: TraceHub;
  exchanges: ExchangeHub;
  redactor: SecretRedactor;
  /** Reads ahead what CEL functions need (secrets, templates); the runtime awaits it before starting sources. */
  prepare?(): Promise<void>;
}

interface Declared<T> {
  name: string;
  file: YamlFile;
  node: Node;
  keyNode: Node;
  value: T;
}

const MAX_FLOW_DEPTH = 16;

/** Builds a definition from its files, or throws a LoadError listing every problem found. */
export function loadDefinition(texts: readonly DefinitionText[], options: LoadOptions): LoadedDefinition {
  const problems: LoadProblem[] = [];
  const files = texts.map((t) => new YamlFile(t.file, t.text));
  const log = options.log ?? silentLogger;
  const traces = options.traces ?? new TraceHub();
  const exchanges = options.exchanges ?? new ExchangeHub();
  const services = options.services ?? noPlatformServices;
  const identity = options.identity ?? services.identity;
  const redactor = options.redactor ?? new SecretRedactor();
  traces.redactor = redactor;

  const envDecls: Declared<Node>[] = [];
  const connectorDecls: Declared<Node>[] = [];
  const flowDecls: Declared<Node>[] = [];
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
      const target = key === 'env' ? envDecls : key === 'connectors' ? connectorDecls : key === 'flows' ? flowDecls : undefined;
      if (!target) {
        problems.push({ location: file.at(pair.key as Node), path: key, message: `unknown top-level key "${key}"${suggest(key, [...TOP_LEVEL_KEYS])}` });
        continue;
      }
      collect(file, pair.value as Node, key, target, problems);
    }
  }

  // Declared variables and their values.
  const env: DeclaredEnv[] = [];
  const envValues = new Map<string, string>();
  const prefetch = new CelPrefetch(options.registry.celFunctions);
  const cel = createCelEnvironmentFor(options.registry, () => host, (source) => prefetch.record(source));
  const baseCtx = (file: YamlFile): SettingsLoadContext => ({
    file,
    problems,
    cel,
    envValue: (n) => envValues.get(n),
    isDeclared: (n) => env.some((e) => e.name === n),
    connectorTypes,
    buildSteps: () => new Chain([]),
  });
  const connectorTypes = new Map<string, string>();
  for (const d of envDecls) {
    const s = loadSettings(envEntrySpec, d.node, `env.${d.name}`, baseCtx(d.file)) as Settings<typeof envEntrySpec>;
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
    env.push(decl);
    const provided = options.env?.[d.name];
    if (provided !== undefined && provided !== '') envValues.set(d.name, provided);
    else if (decl.default !== undefined) envValues.set(d.name, decl.default);
    if (decl.secret) redactor.add(envValues.get(d.name));
    if (options.mode === 'run' && decl.required && (provided === undefined || provided === '')) {
      problems.push({
        location: decl.location,
        path: `env.${d.name}`,
        message: `required variable ${d.name} has no value; bind it (environment, env resource or secret) before running`,
      });
    }
  }

  for (const d of connectorDecls) {
    const type = typeOf(d, 'connectors', options.registry.connectors, problems);
    if (type) connectorTypes.set(d.name, type);
  }

  // Connectors are created (not started) first, so blocks and sources can hold them.
  const connectors: LoadedConnector[] = [];
  const connectorByName = new Map<string, Connector>();
  const flows = new Map<string, LoadedFlow>();
  const flowNames = new Set(flowDecls.map((d) => d.name));

  const host: RuntimeHost = {
    env: (n) => envValues.get(n),
    redact: (text) => redactor.redact(text),
    protectSecret: (value) => redactor.add(value),
    identity,
    services,
    exchanges,
    sandbox: options.sandbox,
    runFlow: (name: string, msg: Message, parent: RunContext): Promise<FlowResult> => {
      const flow = flows.get(name);
      if (!flow) return Promise.resolve({ outcome: 'failed', message: msg, error: { message: `no flow named "${name}"` } });
      if (parent.depth >= MAX_FLOW_DEPTH) {
        return Promise.resolve({ outcome: 'failed', message: msg, error: { message: `flow-ref nesting deeper than ${MAX_FLOW_DEPTH}; is a flow calling itself?` } });
      }
      return flow.runner.runNested(msg, parent.depth + 1);
    },
  };

  const buildContext = (path: string, file: YamlFile, flowName?: string): BuildContext => ({
    path,
    flowName,
    flowSource: flowName === undefined ? undefined : sourceSettingsOf(flowDecls, flowName),
    log: log.child(flowName ? { flow: flowName } : { component: path }),
    cel,
    host,
    connector: <T extends Connector>(name: string): T => {
      const c = connectorByName.get(name);
      if (!c) throw new Error(`no connector named "${name}"`);
      return c as T;
    },
  });

  for (const d of connectorDecls) {
    const type = connectorTypes.get(d.name);
    if (!type) continue;
    const impl = options.registry.connectors.get(type)!;
    const path = `connectors.${d.name}`;
    const settings = settingsFor(impl.def.settings, impl, d.node, path, d.file, ['type']);
    if (!settings) continue;
    try {
      const instance = impl.create(settings as never, buildContext(path, d.file));
      connectorByName.set(d.name, instance);
      connectors.push({ name: d.name, type, location: d.file.at(d.keyNode), instance });
    } catch (err) {
      problems.push({ location: d.file.at(d.node), path, message: errorMessage(err) });
    }
  }

  function settingsFor(
    spec: SettingsSpec,
    impl: { check?: (s: never) => string[] },
    node: Node,
    path: string,
    file: YamlFile,
    ignore: readonly string[],
    flowName?: string,
  ): Record<string, unknown> | undefined {
    const before = problems.length;
    const ctx: SettingsLoadContext = {
      ...baseCtx(file),
      buildSteps: (n, p) => buildChain(n, p, file, flowName),
    };
    const withDefaults = fillConnectorDefaults(spec, node, file, path);
    const settings = loadSettings(spec, node, path, ctx, ignore);
    Object.assign(settings, withDefaults(settings));
    checkFlowRefs(spec, settings, node, path, file);
    if (problems.length > before) return undefined;
    for (const message of impl.check?.(settings as never) ?? []) {
      problems.push({ location: file.at(node), path, message });
    }
    return problems.length > before ? undefined : settings;
  }

  /**
   * A connector setting left out falls back to its default name, or else to the only connector of
   * the right type, so a definition with one http connector need not name it everywhere.
   */
  function fillConnectorDefaults(spec: SettingsSpec, node: Node, file: YamlFile, path: string) {
    return (settings: Record<string, unknown>): Record<string, unknown> => {
      const filled: Record<string, unknown> = {};
      for (const [name, s] of Object.entries(spec)) {
        if (s.type !== 'string' || !s.connectorType || explicitlySet(node, name)) continue;
        const current = settings[name];
        if (current === undefined && !('default' in s)) continue;
        if (current !== undefined && connectorTypes.get(String(current)) === s.connectorType) continue;
        const candidates = [...connectorTypes].filter(([, t]) => t === s.connectorType).map(([n]) => n);
        if (candidates.length === 1) filled[name] = candidates[0];
        else if (candidates.length > 1 && s.connectorNeededAtRunOnly) continue;
        else {
          problems.push({
            location: file.at(node),
            path: `${path}.${name}`,
            message:
              candidates.length === 0
                ? `needs a ${s.connectorType} connector; declare one under connectors:`
                : `several ${s.connectorType} connectors (${candidates.join(', ')}); name one with ${name}:`,
          });
        }
      }
      return filled;
    };
  }

  function checkFlowRefs(spec: SettingsSpec, settings: Record<string, unknown>, node: Node, path: string, file: YamlFile): void {
    for (const [name, s] of Object.entries(spec)) {
      if (s.type === 'string' && s.flowRef && typeof settings[name] === 'string' && !flowNames.has(settings[name] as string)) {
        const target = isMap(node) ? (node.get(name, true) as Node | undefined) : undefined;
        problems.push({
          location: file.at(target ?? node),
          path: `${path}.${name}`,
          message: `no flow named "${String(settings[name])}"${suggest(String(settings[name]), [...flowNames])}`,
        });
      }
    }
  }

  function buildChain(node: Node | null | undefined, path: string, file: YamlFile, flowName?: string): Chain {
    if (node === null || node === undefined) return new Chain([]);
    if (!isSeq(node)) {
      problem(baseCtx(file), node, path, 'expected a list of steps, each `- <block>: {settings}`');
      return new Chain([]);
    }
    const steps: Step[] = [];
    node.items.forEach((item, i) => {
      const stepPath = `${path}[${i}]`;
      const step = buildStep(item as Node, stepPath, file, flowName);
      if (step) steps.push(step);
    });
    return new Chain(steps);
  }

  function buildStep(node: Node, path: string, file: YamlFile, flowName?: string): Step | undefined {
    if (!isMap(node)) {
      problems.push({ location: file.at(node), path, message: 'a step is a mapping: `- <block>: {settings}`' });
      return undefined;
    }
    let name: string | undefined;
    const blockPairs: Pair[] = [];
    for (const pair of (node as YAMLMap).items) {
      if (keyOf(pair) === STEP_NAME_KEY) {
        const v = pair.value as Node;
        if (isScalar(v) && typeof v.value === 'string') name = v.value;
        else problems.push({ location: file.at(v), path: `${path}.name`, message: 'a step name is a string' });
      } else blockPairs.push(pair);
    }
    if (blockPairs.length !== 1) {
      problems.push({
        location: file.at(node),
        path,
        message:
          blockPairs.length === 0
            ? 'a step names one block, e.g. `- log: {message: "hi"}`'
            : `a step names exactly one block, found ${blockPairs.map(keyOf).join(', ')}; split them into separate steps`,
      });
      return undefined;
    }
    const pair = blockPairs[0];
    const type = keyOf(pair);
    const impl = options.registry.blocks.get(type) as AnyBlockImpl | undefined;
    if (!impl) {
      problems.push({ location: file.at(pair.key as Node), path, message: `unknown block "${type}"${suggest(type, [...options.registry.blocks.keys()])}` });
      return undefined;
    }
    const settingsNode = (pair.value ?? null) as Node;
    const blockPath = `${path}.${type}`;
    const settings = settingsFor(impl.def.settings, impl, settingsNode ?? node, blockPath, file, [], flowName);
    if (!settings) return undefined;
    try {
      const block = impl.create(settings as never, buildContext(path, file, flowName));
      return { path, type, name, block };
    } catch (err) {
      problems.push({ location: file.at(pair.key as Node), path: blockPath, message: errorMessage(err) });
      return undefined;
    }
  }

  // Flows: runners first so flow-ref can find every flow, then sources.
  const sourcesToBuild: Array<{ flow: LoadedFlow; node: Node; decl: Declared<Node> }> = [];
  for (const d of flowDecls) {
    const path = `flows.${d.name}`;
    const settings = settingsFor(flowSpec, {}, d.node, path, d.file, [FLOW_SOURCE_KEY], d.name) as Settings<typeof flowSpec> | undefined;
    if (!settings) continue;
    const runner = new FlowRunner({
      name: d.name,
      steps: settings.steps,
      onError: settings.onError,
      workers: settings.workers,
      buffer: settings.buffer,
      traces,
      identity,
    });
    const flow: LoadedFlow = { name: d.name, location: d.file.at(d.keyNode), file: d.file.file, runner };
    flows.set(d.name, flow);
    const sourceNode = isMap(d.node) ? (d.node.get(FLOW_SOURCE_KEY, true) as Node | undefined) : undefined;
    if (sourceNode) sourcesToBuild.push({ flow, node: sourceNode, decl: d });
    if (settings.leader) {
      // Replicas of one deployment elect per flow; another deployment's flow of the same name is not a rival.
      flow.leader = settings.leaderKey ?? `${identity.deploymentId}/${d.name}`;
      if (!sourceNode) problems.push({ location: d.file.at(d.keyNode), path: `${path}.leader`, message: 'leader: true elects the instance that runs the source, and this flow has no source' });
    }
  }

  for (const { flow, node, decl } of sourcesToBuild) {
    const path = `flows.${flow.name}.source`;
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
    const settings = settingsFor(impl.def.settings, impl, node, path, decl.file, ['type'], flow.name);
    if (!settings) continue;
    const ctx: SourceContext = {
      ...buildContext(path, decl.file, flow.name),
      flowName: flow.name,
      capacity: flow.runner.capacity,
      submit: (msg) => flow.runner.submit(msg),
      traces,
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
      problems.push({ location: decl.file.at(typeNode ?? node), path, message: errorMessage(err) });
    }
  }

  if (problems.length > 0) throw new LoadError(sortProblems(problems));
  return { files: texts.map((t) => t.file), env, envValues, connectors, flows, host, traces, exchanges, redactor, prepare: () => prefetch.run(host) };
}

function createCelEnvironmentFor(registry: ComponentRegistry, host: () => RuntimeHost, onCompile: (source: string) => void): CelEnvironment {
  return createCelEnvironment(
    registry.celFunctions.map((f) => {
      let handler: ((...args: never[]) => unknown) | undefined;
      // The host exists only once loading is under way; functions bind to it on first call.
      return { signature: f.signature, description: f.description, handler: (...args: never[]) => (handler ??= f.create(host()))(...args) };
    }),
    onCompile,
  );
}

/** A flow's `source:` as written, as plain data (env references not substituted). */
function sourceSettingsOf(flows: readonly Declared<Node>[], flowName: string): Record<string, unknown> | undefined {
  const flow = flows.find((d) => d.name === flowName);
  const source = flow && isMap(flow.node) ? flow.node.get(FLOW_SOURCE_KEY, true) : undefined;
  const value: unknown = isMap(source) ? source.toJSON() : undefined;
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

function keyOf(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

function explicitlySet(node: Node, name: string): boolean {
  return isMap(node) && node.has(name);
}

function collect(file: YamlFile, node: Node | null, section: string, into: Declared<Node>[], problems: LoadProblem[]): void {
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
    into.push({ name, file, node: (pair.value ?? pair.key) as Node, keyNode: pair.key as Node, value: pair.value as Node });
  }
}

function typeOf(d: Declared<Node>, section: string, known: ReadonlyMap<string, unknown>, problems: LoadProblem[]): string | undefined {
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

function sortProblems(problems: LoadProblem[]): LoadProblem[] {
  return [...problems].sort(
    (a, b) =>
      a.location.file.localeCompare(b.location.file) || a.location.line - b.location.line || a.location.col - b.location.col,
  );
}
