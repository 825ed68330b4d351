import type { CelEnvironment, CompiledCel } from './cel.ts';
import type { Message } from './message.ts';
import type {
  BooleanSetting,
  CelSetting,
  DurationSetting,
  IntSetting,
  ListSetting,
  MapSetting,
  NumberSetting,
  ObjectSetting,
  Setting,
  SettingsSpec,
  StepsSetting,
  StringSetting,
} from './setting-spec.ts';
import type { Chain, ChainRest, FlowResult, RunContext } from './engine/chain.ts';
import type { Logger } from './logger.ts';
import type { RuntimeHost } from './runtime-host.ts';
import type { TraceHub } from './trace.ts';

/* ---------- Declarations: pure data, one per component, in `*.def.ts` files ---------- */

interface DefBase<S extends SettingsSpec> {
  type: string;
  /** One line for the palette and completion. */
  summary: string;
  /** Longer Markdown for docs and hover. */
  description?: string;
  settings: S;
  /** A YAML snippet shown in docs. */
  example?: string;
}

export interface BlockDef<S extends SettingsSpec = SettingsSpec> extends DefBase<S> {
  kind: 'block';
}
export interface ConnectorDef<S extends SettingsSpec = SettingsSpec> extends DefBase<S> {
  kind: 'connector';
}
export interface SourceDef<S extends SettingsSpec = SettingsSpec> extends DefBase<S> {
  kind: 'source';
  /** The connector type this source attaches to (its `connector` setting names one), if any. */
  connectorType?: string;
  /**
   * What becomes of the message when its run fails and no error chain handles it, as a phrase
   * (the reference and the graph's empty error chain say it).
   */
  onFailure: string;
}

export type ComponentDef = BlockDef | ConnectorDef | SourceDef;

export function defineBlock<const S extends SettingsSpec>(def: Omit<BlockDef<S>, 'kind'>): BlockDef<S> {
  return { kind: 'block', ...def };
}
export function defineConnector<const S extends SettingsSpec>(def: Omit<ConnectorDef<S>, 'kind'>): ConnectorDef<S> {
  return { kind: 'connector', ...def };
}
export function defineSource<const S extends SettingsSpec>(def: Omit<SourceDef<S>, 'kind'>): SourceDef<S> {
  return { kind: 'source', ...def };
}

/* ---------- Loaded settings: what a component receives, typed from its declaration ---------- */

type Present<T extends Setting> = T extends { required: true }
  ? true
  : T extends { defaultAppliedByComponent: true }
    ? false
    : T extends { default: unknown }
      ? true
      : false;

export type LoadedValue<T extends Setting> = T extends StringSetting
  ? T['enum'] extends readonly (infer E)[]
    ? E
    : string
  : T extends IntSetting | NumberSetting | DurationSetting
    ? number
    : T extends BooleanSetting
      ? boolean
      : T extends CelSetting
        ? CompiledCel
        : T extends StepsSetting
          ? Chain
          : T extends ListSetting
            ? LoadedValue<T['items']>[]
            : T extends MapSetting
              ? Record<string, LoadedValue<T['values']>>
              : T extends ObjectSetting
                ? Settings<T['fields']>
                : unknown;

export type Settings<S extends SettingsSpec> = {
  [K in keyof S as Present<S[K]> extends true ? K : never]: LoadedValue<S[K]>;
} & {
  [K in keyof S as Present<S[K]> extends true ? never : K]?: LoadedValue<S[K]>;
};

/* ---------- Behaviour ---------- */

/** Returned by a block to end the chain early with the message as the flow's result (completed). */
export class Halt {
  constructor(readonly message: Message) {}
}

/** A block returns the message to continue, null to drop it, a Halt to finish early; throws to fail. */
export type StepResult = Message | null | Halt;

export interface Block {
  process(msg: Message, run: RunContext): StepResult | Promise<StepResult>;
  /**
   * Only for blocks with nested steps (a switch's cases, a lock's steps): does what `process`
   * does once it has chosen a nested chain, except that `rest` runs that chain from a step inside
   * it. A re-run from a nested step goes through here, so the lock is held and a case's outcome
   * maps to the block's result exactly as in a whole run.
   */
  resume?(msg: Message, run: RunContext, rest: ChainRest): StepResult | Promise<StepResult>;
}

export interface Connector {
  /** Connects and checks (a docstore pings its server); nothing is open to callers yet. */
  start?(): Promise<void>;
  /**
   * Opens the connector to callers (an http server binds its port). Runs only once every
   * connector has started and every source too, so a definition whose start fails was never
   * reachable, not even for a moment.
   */
  listen?(): Promise<void>;
  /**
   * Stop taking new work (an http server stops listening) while in-flight work finishes, so a
   * reloaded definition can take over the same port at once. `stop` follows later.
   */
  quiesce?(): Promise<void>;
  stop?(): Promise<void>;
  /** Plain data shown by the studio and the CLI once started, e.g. `{url: 'http://127.0.0.1:8080'}`. */
  describe?(): Record<string, unknown>;
}

export interface Source {
  start(): Promise<void>;
  /** Stops taking new messages; in-flight ones finish through the flow. */
  stop(): Promise<void>;
  describe?(): Record<string, unknown>;
}

/** What every component gets when it is built. */
export interface BuildContext {
  /** The component's setting path, e.g. `flows.orders.steps[2]` or `connectors.web`. */
  path: string;
  /** The flow being built, for blocks and sources. */
  flowName?: string;
  /** The settings of that flow's source as written (`type` included), for blocks whose defaults follow the source. */
  flowSource?: Readonly<Record<string, unknown>>;
  log: Logger;
  cel: CelEnvironment;
  host: RuntimeHost;
  /** The started-or-not instance of a connector declared in the definition. */
  connector<T extends Connector = Connector>(name: string): T;
}

export interface SourceContext extends BuildContext {
  flowName: string;
  /** Messages the flow takes at once (workers plus buffer), for sources that pull only what fits. */
  capacity: number;
  /** Runs one message through the flow, respecting `workers` and `buffer`; never rejects. */
  submit(msg: Message): Promise<FlowResult>;
  /** Like submit, but answers synchronously when a worker is free and the run's blocks all do. */
  start(msg: Message): FlowResult | Promise<FlowResult>;
  /** The definition's trace hub, for sources that report the request they answered. */
  traces?: TraceHub;
  /**
   * Traces a message the source refused before the flow ran (a request body it could not read)
   * as a run of no steps whose error says why, with the run's identity; `traced`: the source's
   * sampling decision, when it made one. Returns the run's correlation id, or undefined when
   * not traced.
   */
  refused?(reason: string, correlationId: string | undefined, traced: boolean | undefined): string | undefined;
}

export interface BlockImpl<S extends SettingsSpec = SettingsSpec> {
  def: BlockDef<S>;
  /** Cross-setting rules the spec table cannot say (e.g. exactly one of two settings). */
  check?(settings: Settings<S>): string[];
  create(settings: Settings<S>, ctx: BuildContext): Block;
}
export interface ConnectorImpl<S extends SettingsSpec = SettingsSpec> {
  def: ConnectorDef<S>;
  check?(settings: Settings<S>): string[];
  create(settings: Settings<S>, ctx: BuildContext): Connector;
}
export interface SourceImpl<S extends SettingsSpec = SettingsSpec> {
  def: SourceDef<S>;
  check?(settings: Settings<S>): string[];
  create(settings: Settings<S>, ctx: SourceContext): Source;
}

export function implementBlock<S extends SettingsSpec>(
  def: BlockDef<S>,
  create: BlockImpl<S>['create'],
  check?: BlockImpl<S>['check'],
): BlockImpl<S> {
  return { def, create, check };
}
export function implementConnector<S extends SettingsSpec>(
  def: ConnectorDef<S>,
  create: ConnectorImpl<S>['create'],
  check?: ConnectorImpl<S>['check'],
): ConnectorImpl<S> {
  return { def, create, check };
}
export function implementSource<S extends SettingsSpec>(
  def: SourceDef<S>,
  create: SourceImpl<S>['create'],
  check?: SourceImpl<S>['check'],
): SourceImpl<S> {
  return { def, create, check };
}

/* Type-erased forms for registries and the loader, which handle components of every spec. */
export interface AnyBlockImpl {
  def: BlockDef<SettingsSpec>;
  check?(settings: never): string[];
  create(settings: never, ctx: BuildContext): Block;
}
export interface AnyConnectorImpl {
  def: ConnectorDef<SettingsSpec>;
  check?(settings: never): string[];
  create(settings: never, ctx: BuildContext): Connector;
}
export interface AnySourceImpl {
  def: SourceDef<SettingsSpec>;
  check?(settings: never): string[];
  create(settings: never, ctx: SourceContext): Source;
}
