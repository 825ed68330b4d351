import { isMap, isScalar, isSeq, type Node, type Pair, type YAMLMap } from 'yaml';
import type { CelEnvironment } from '../cel.ts';
import type { AnyBlockImpl, BuildContext, Connector } from '../component.ts';
import { Chain, type Step } from '../engine/chain.ts';
import { errorMessage, type LoadProblem } from '../errors.ts';
import type { Logger, SecretRedactor } from '../logger.ts';
import type { RuntimeHost } from '../runtime-host.ts';
import type { SettingsSpec } from '../setting-spec.ts';
import type { TraceHub } from '../trace.ts';
import type { ExchangeHub } from '../exchange-hub.ts';
import type { PlatformServices } from '../../services/platform-services.ts';
import type { CelPrefetch } from './cel-prefetch.ts';
import { FLOW_SOURCE_KEY, STEP_NAME_KEY } from './definition-format.ts';
import type { LoadedConnector, LoadedFlow, LoadOptions } from './definition-loader.ts';
import type { DeclaredEnv } from './env-vars.ts';
import { suggest } from '../did-you-mean.ts';
import { loadSettings, problem, type SettingsLoadContext } from './settings-loader.ts';
import type { YamlFile } from './yaml-file.ts';

/** One named entry of a top-level section (`env:`, `connectors:`, `flows:`) where it was written. */
export interface Declared {
  name: string;
  file: YamlFile;
  node: Node;
  keyNode: Node;
}

/**
 * What the phases of loading share (definition-loader.ts runs them in order: declarations → env
 * → connectors → flows → sources). Each phase reads what earlier ones filled in and adds its own;
 * every problem goes to `problems`, so one load reports all of them.
 */
export interface LoadState {
  readonly options: LoadOptions;
  readonly problems: LoadProblem[];
  readonly declared: { env: Declared[]; connectors: Declared[]; flows: Declared[] };
  /** env: the declared variables and the value each resolved to. */
  readonly env: DeclaredEnv[];
  readonly envValues: Map<string, string>;
  /** connectors: type by name (known before any is created, for connector defaults), then instances. */
  readonly connectorTypes: Map<string, string>;
  readonly connectors: LoadedConnector[];
  readonly connectorByName: Map<string, Connector>;
  /** flows: every flow by name (flow-ref resolves against it), sources attached last. */
  readonly flows: Map<string, LoadedFlow>;
  readonly flowNames: Set<string>;
  /** Every chain of steps built (a flow's, its error chain, each nested `steps:`) by setting path: a re-run finds where to start in it. */
  readonly chains: Map<string, Chain>;
  readonly cel: CelEnvironment;
  readonly prefetch: CelPrefetch;
  readonly host: RuntimeHost;
  readonly log: Logger;
  readonly traces: TraceHub;
  readonly exchanges: ExchangeHub;
  readonly services: PlatformServices;
  readonly identity: { deploymentId: string; instanceId: string };
  readonly redactor: SecretRedactor;
}

/** What settings of a file are loaded against: variables, connectors, the CEL environment. */
export function settingsContext(st: LoadState, file: YamlFile): SettingsLoadContext {
  return {
    file,
    problems: st.problems,
    cel: st.cel,
    envValue: (n) => st.envValues.get(n),
    isDeclared: (n) => st.env.some((e) => e.name === n),
    connectorTypes: st.connectorTypes,
    declaredConnectors: new Set(st.declared.connectors.map((d) => d.name)),
    buildSteps: () => new Chain([]),
  };
}

/** What a connector, block or source is created with. */
export function buildContext(st: LoadState, path: string, flowName?: string): BuildContext {
  return {
    path,
    flowName,
    flowSource: flowName === undefined ? undefined : sourceSettingsOf(st.declared.flows, flowName),
    log: st.log.child(flowName ? { flow: flowName } : { component: path }),
    cel: st.cel,
    host: st.host,
    connector: <T extends Connector>(name: string): T => {
      const c = st.connectorByName.get(name);
      if (c) return c as T;
      if (st.declared.connectors.some((d) => d.name === name)) throw new ConnectorNotBuilt(name);
      throw new Error(`no connector named "${name}"`);
    },
  };
}

/**
 * A component asked for a connector that is declared but did not load: its own problems are
 * reported where its settings are, and "no connector named web" at each user of it would be a
 * second, wrong problem (web is declared) that sends the reader to the wrong line.
 */
export class ConnectorNotBuilt extends Error {
  constructor(name: string) {
    super(`connector "${name}" did not load`);
  }
}

/** Adds a problem for what a component's create threw, unless it only met a connector that did not load. */
export function createProblem(problems: LoadProblem[], problem: LoadProblem, err: unknown): void {
  if (!(err instanceof ConnectorNotBuilt)) problems.push(problem);
}

/**
 * A component's settings loaded against its spec, connector defaults filled, flow references and
 * the component's own checks applied; undefined (with problems added) when anything is wrong.
 */
export function settingsFor(
  st: LoadState,
  spec: SettingsSpec,
  impl: { check?: (s: never) => string[] },
  node: Node,
  path: string,
  file: YamlFile,
  ignore: readonly string[],
  flowName?: string,
): Record<string, unknown> | undefined {
  const { problems } = st;
  const before = problems.length;
  const ctx: SettingsLoadContext = {
    ...settingsContext(st, file),
    buildSteps: (n, p) => buildChain(st, n, p, file, flowName),
  };
  const withDefaults = fillConnectorDefaults(st, spec, node, file, path);
  const settings = loadSettings(spec, node, path, ctx, ignore);
  Object.assign(settings, withDefaults(settings));
  checkFlowRefs(st, spec, settings, node, path, file);
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
function fillConnectorDefaults(st: LoadState, spec: SettingsSpec, node: Node, file: YamlFile, path: string) {
  return (settings: Record<string, unknown>): Record<string, unknown> => {
    const filled: Record<string, unknown> = {};
    for (const [name, s] of Object.entries(spec)) {
      if (s.type !== 'string' || !s.connectorType || explicitlySet(node, name)) continue;
      const current = settings[name];
      if (current === undefined && !('default' in s)) continue;
      if (current !== undefined && st.connectorTypes.get(String(current)) === s.connectorType) continue;
      const candidates = [...st.connectorTypes].filter(([, t]) => t === s.connectorType).map(([n]) => n);
      if (candidates.length === 1) filled[name] = candidates[0];
      else if (candidates.length > 1 && s.connectorNeededAtRunOnly) continue;
      else if (candidates.length === 0 && untyped(st) !== undefined) {
        // None of the type, but a connector of unknown type is declared: that one may be meant (htp
        // for http), and its type is already a problem; 'needs a http connector' would be a second.
        // Naming it makes the component meet a connector that did not load, which adds nothing.
        filled[name] = untyped(st);
      }
      else {
        st.problems.push({
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

/** The first declared connector whose type is unknown (not loaded), if any. */
function untyped(st: LoadState): string | undefined {
  return st.declared.connectors.find((d) => !st.connectorTypes.has(d.name))?.name;
}

function checkFlowRefs(st: LoadState, spec: SettingsSpec, settings: Record<string, unknown>, node: Node, path: string, file: YamlFile): void {
  for (const [name, s] of Object.entries(spec)) {
    if (s.type === 'string' && s.flowRef && typeof settings[name] === 'string' && !st.flowNames.has(settings[name] as string)) {
      const target = isMap(node) ? (node.get(name, true) as Node | undefined) : undefined;
      st.problems.push({
        location: file.at(target ?? node),
        path: `${path}.${name}`,
        message: `no flow named "${String(settings[name])}"${suggest(String(settings[name]), [...st.flowNames])}`,
      });
    }
  }
}

/** A list of steps (a flow's, or a block's nested `steps:`). */
export function buildChain(st: LoadState, node: Node | null | undefined, path: string, file: YamlFile, flowName?: string): Chain {
  if (node === null || node === undefined) return new Chain([]);
  if (!isSeq(node)) {
    problem(settingsContext(st, file), node, path, 'expected a list of steps, each `- <block>: {settings}`');
    return new Chain([]);
  }
  const steps: Step[] = [];
  node.items.forEach((item, i) => {
    const step = buildStep(st, item as Node, `${path}[${i}]`, file, flowName);
    if (step) steps.push(step);
  });
  const chain = new Chain(steps, path);
  st.chains.set(path, chain);
  return chain;
}

function buildStep(st: LoadState, node: Node, path: string, file: YamlFile, flowName?: string): Step | undefined {
  const { problems, options } = st;
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
  const settings = settingsFor(st, impl.def.settings, impl, settingsNode ?? node, blockPath, file, [], flowName);
  if (!settings) return undefined;
  try {
    const block = impl.create(settings as never, buildContext(st, path, flowName));
    return { path, type, name, block };
  } catch (err) {
    createProblem(problems, { location: file.at(pair.key as Node), path: blockPath, message: errorMessage(err) }, err);
    return undefined;
  }
}

/** A flow's `source:` as written, as plain data (env references not substituted). */
function sourceSettingsOf(flows: readonly Declared[], flowName: string): Record<string, unknown> | undefined {
  const flow = flows.find((d) => d.name === flowName);
  const source = flow && isMap(flow.node) ? flow.node.get(FLOW_SOURCE_KEY, true) : undefined;
  const value: unknown = isMap(source) ? source.toJSON() : undefined;
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

export function keyOf(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

function explicitlySet(node: Node, name: string): boolean {
  return isMap(node) && node.has(name);
}
