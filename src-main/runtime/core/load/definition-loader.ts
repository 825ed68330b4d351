import { systemClock, type Clock } from '../../../../shared/clock.ts';
import { createCelEnvironment, type CelEnvironment } from '../cel.ts';
import type { Connector, Source } from '../component.ts';
import type { FlowResult, RunContext } from '../engine/chain.ts';
import type { FlowRunner } from '../engine/flow-runner.ts';
import { LoadError, type LoadProblem, type SourceLocation } from '../errors.ts';
import { SecretRedactor, silentLogger, type Logger } from '../logger.ts';
import type { Message } from '../message.ts';
import type { ComponentRegistry } from '../registry-types.ts';
import type { RuntimeHost } from '../runtime-host.ts';
import type { RuntimeSandbox } from '../sandbox.ts';
import { TraceHub } from '../trace.ts';
import { ExchangeHub } from '../exchange-hub.ts';
import { noPlatformServices, type PlatformServices } from '../../services/platform-services.ts';
import { CelPrefetch } from './cel-prefetch.ts';
import type { DeclaredEnv } from './env-vars.ts';
import { loadConnectors, loadEnv, loadFlows, loadSources, readDeclarations } from './load-phases.ts';
import type { LoadState } from './load-state.ts';
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
  /** What the components' timers and timestamps run on; default the system clock. */
  clock?: Clock;
  /** False: sources do not log failed runs (the caller does); see RuntimeHost.logFailedRuns. */
  logFailedRuns?: boolean;
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
  /** The CEL environment the definition's expressions compiled in (its functions bound to this host): a debugger evaluates there. */
  cel: CelEnvironment;
  /** Reads ahead what CEL functions need (secrets, templates); the runtime awaits it before starting sources. */
  prepare?(): Promise<void>;
}

const MAX_FLOW_DEPTH = 16;

/**
 * Builds a definition from its files, or throws a LoadError listing every problem found. Loading
 * runs in phases over one LoadState (load-phases.ts): declarations → env → connectors → flows →
 * sources, each reading what the earlier ones resolved.
 */
export function loadDefinition(texts: readonly DefinitionText[], options: LoadOptions): LoadedDefinition {
  const st = createLoadState(texts.map((t) => new YamlFile(t.file, t.text)), options);
  loadEnv(st);
  loadConnectors(st);
  loadSources(st, loadFlows(st));
  if (st.problems.length > 0) throw new LoadError(sortProblems(st.problems));
  const { env, envValues, connectors, flows, host, traces, exchanges, redactor, prefetch, cel } = st;
  return { files: texts.map((t) => t.file), env, envValues, connectors, flows, host, traces, exchanges, redactor, cel, prepare: () => prefetch.run(host) };
}

/** The state the phases share, with the declarations already read (phase 1). */
function createLoadState(files: readonly YamlFile[], options: LoadOptions): LoadState {
  const problems: LoadProblem[] = [];
  const declared = readDeclarations(files, problems);
  const services = options.services ?? noPlatformServices;
  const identity = options.identity ?? services.identity;
  const redactor = options.redactor ?? new SecretRedactor();
  const traces = options.traces ?? new TraceHub();
  traces.redactor = redactor;
  const exchanges = options.exchanges ?? new ExchangeHub(traces.admission);
  const envValues = new Map<string, string>();
  const flows = new Map<string, LoadedFlow>();
  const host: RuntimeHost = {
    env: (n) => envValues.get(n),
    redact: (text) => redactor.redact(text),
    protectSecret: (value) => redactor.add(value),
    identity,
    services,
    exchanges,
    sandbox: options.sandbox,
    clock: options.clock ?? systemClock,
    logFailedRuns: options.logFailedRuns,
    runFlow: (name: string, msg: Message, parent: RunContext): Promise<FlowResult> => {
      const flow = flows.get(name);
      if (!flow) return Promise.resolve({ outcome: 'failed', message: msg, error: { message: `no flow named "${name}"` } });
      if (parent.depth >= MAX_FLOW_DEPTH) {
        return Promise.resolve({ outcome: 'failed', message: msg, error: { message: `flow-ref nesting deeper than ${MAX_FLOW_DEPTH}; is a flow calling itself?` } });
      }
      return flow.runner.runNested(msg, parent.depth + 1, parent.debug);
    },
  };
  const prefetch = new CelPrefetch(options.registry.celFunctions);
  return {
    options,
    problems,
    declared,
    env: [],
    envValues,
    connectorTypes: new Map(),
    connectors: [],
    connectorByName: new Map<string, Connector>(),
    flows,
    flowNames: new Set(declared.flows.map((d) => d.name)),
    chains: new Map(),
    cel: createCelEnvironmentFor(options.registry, () => host, (source) => prefetch.record(source)),
    prefetch,
    host,
    log: options.log ?? silentLogger,
    traces,
    exchanges,
    services,
    identity,
    redactor,
  };
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

function sortProblems(problems: LoadProblem[]): LoadProblem[] {
  return [...problems].sort(
    (a, b) =>
      a.location.file.localeCompare(b.location.file) || a.location.line - b.location.line || a.location.col - b.location.col,
  );
}
