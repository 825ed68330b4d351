import { errorMessage } from './errors.ts';
import type { ExchangeObserver } from './exchange-hub.ts';
import type { LoadedDefinition } from './load/definition-loader.ts';
import { loadDefinition, type LoadOptions } from './load/definition-loader.ts';
import type { DefinitionText } from './load/integration-files.ts';
import { silentLogger, type Logger } from './logger.ts';
import { Message } from './message.ts';
import type { FlowResult } from './engine/chain.ts';
import type { DebugHook } from './engine/debug-hook.ts';
import { runHolds } from './run-hold.ts';
import { otelConfigFromEnv } from '../telemetry/otel-config.ts';
import type { OtelExport } from '../telemetry/otel-export.ts';

export interface RuntimeDescription {
  flows: Array<{ name: string; source?: string; details?: Record<string, unknown> }>;
  connectors: Array<{ name: string; type: string; details?: Record<string, unknown> }>;
}

/**
 * A loaded definition with a lifecycle: connectors start before sources, listeners open only
 * after both (start is all or nothing: a failure anywhere leaves nothing reachable), sources stop
 * before connectors, and stop waits for in-flight messages so nothing is cut off mid-flow.
 */
export class Runtime {
  private started = false;
  private readonly log: Logger;
  private detachTraces: (() => void) | undefined;
  private otel: OtelExport | undefined;
  private debugHook: DebugHook | undefined;

  private constructor(
    readonly definition: LoadedDefinition,
    log: Logger,
    /** The integration this runtime runs, named on exported spans (`flow.integration`). */
    private readonly integration: string | undefined,
  ) {
    this.log = log;
  }

  /** Loads and builds; throws LoadError with every problem found. */
  static load(texts: readonly DefinitionText[], options: Omit<LoadOptions, 'mode'> & { integration?: string }): Runtime {
    const definition = loadDefinition(texts, { ...options, mode: 'run' });
    return new Runtime(definition, options.log ?? silentLogger, options.integration);
  }

  get traces() {
    return this.definition.traces;
  }

  /** This runtime's log: where a debugger's logpoints write, beside the runs' own lines. */
  get logger(): Logger {
    return this.log;
  }

  /**
   * Attaches a debugger to every flow of this runtime: runs that start from now on ask it before
   * each step (runtime/debug/). Returns the detach; runs already paused finish as told.
   */
  attachDebugger(hook: DebugHook): () => void {
    for (const flow of this.definition.flows.values()) flow.runner.attachDebugger(hook);
    runHolds.watching++;
    this.debugHook = hook;
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      if (this.debugHook === hook) this.debugHook = undefined;
      runHolds.watching--;
      for (const flow of this.definition.flows.values()) flow.runner.attachDebugger(undefined);
    };
  }

  /** Watches the requests this runtime's servers answer (and SSE frames they write); returns the unsubscribe. */
  observe(observer: ExchangeObserver): () => void {
    return this.definition.exchanges.add(observer);
  }

  async start(): Promise<void> {
    this.sayWhenSaturated();
    const startedConnectors: typeof this.definition.connectors = [];
    // Traces go to the platform while this runtime runs (a no-op when the platform takes none).
    this.detachTraces = this.definition.host.services.telemetry.attachTraces(this.traces);
    await this.startOtelExport();
    try {
      await this.definition.prepare?.();
      for (const c of this.definition.connectors) {
        await c.instance.start?.();
        startedConnectors.push(c);
      }
      for (const flow of this.definition.flows.values()) await flow.source?.start();
      for (const c of this.definition.connectors) await c.instance.listen?.();
      this.started = true;
    } catch (err) {
      for (const flow of this.definition.flows.values()) await flow.source?.stop().catch(() => {});
      for (const c of startedConnectors.reverse()) await c.instance.stop?.().catch(() => {});
      this.detachTraces();
      await this.otel?.shutdown().catch(() => {});
      throw err;
    }
    this.log.info('runtime started', { flows: [...this.definition.flows.keys()], services: this.definition.host.services.implementation });
  }

  /**
   * First half of a hot reload: sources stop and connectors release their listeners, while
   * in-flight messages keep running. Call `stop()` afterwards to drain and close.
   */
  async quiesce(): Promise<void> {
    for (const flow of this.definition.flows.values()) await flow.source?.stop().catch(() => {});
    for (const c of this.definition.connectors) await c.instance.quiesce?.().catch(() => {});
  }

  /** Messages running or waiting in this runtime's flows: what a stop waits for. */
  get inFlight(): number {
    let n = 0;
    for (const flow of this.definition.flows.values()) n += flow.runner.inFlight;
    return n;
  }

  /** Stops sources, waits up to `graceMs` for in-flight messages, then stops connectors. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.started) return;
    this.started = false;
    for (const flow of this.definition.flows.values()) {
      await flow.source?.stop().catch((err) => this.log.warn('source did not stop cleanly', { flow: flow.name, error: errorMessage(err) }));
    }
    this.debugHook?.release?.('the integration stopped or reloaded');
    const idle = Promise.all([...this.definition.flows.values()].map((f) => f.runner.idle()));
    await Promise.race([idle, new Promise((r) => setTimeout(r, graceMs).unref())]);
    for (const c of [...this.definition.connectors].reverse()) {
      await c.instance.stop?.().catch((err) => this.log.warn('connector did not stop cleanly', { connector: c.name, error: errorMessage(err) }));
    }
    this.detachTraces?.();
    await this.otel?.shutdown().catch((err) => this.log.warn('OpenTelemetry export did not flush', { error: errorMessage(err) }));
    const { shed: notTraced, chargedMs } = this.traces.admission;
    // How many runs went untraced under load over the runtime's life, when any did, and what tracing took of this thread.
    this.log.info('runtime stopped', { ...(notTraced > 0 ? { notTraced } : {}), ...(chargedMs > 0 ? { tracingMs: Math.round(chargedMs) } : {}) });
  }

  /** When the thread saturates and runs beyond the hub's rate go untraced, the log says so, at most every 30 s. */
  private sayWhenSaturated(): void {
    const admission = this.traces.admission;
    let said = -Infinity;
    admission.onSaturated = () => {
      const now = Date.now();
      if (now - said < 30_000) return;
      said = now;
      this.log.info(`the request thread is saturated: tracing at most FLOW_TRACE_SATURATED_RATE runs a second, within ${Number((admission.budget * 100).toFixed(2))}% of its CPU (FLOW_TRACE_SATURATED_BUDGET), until it has time to spare`, {
        rate: admission.saturatedRate,
        budget: admission.budget,
        notTraced: admission.shed,
      });
    };
  }

  /**
   * OTLP export when the standard `OTEL_*` variables name an endpoint. The SDK is loaded only
   * then, so a runtime that exports nothing pays nothing for it at start.
   */
  private async startOtelExport(): Promise<void> {
    const config = otelConfigFromEnv(process.env);
    if (!config) return;
    const { attachOtelExport } = await import('../telemetry/otel-export.ts');
    this.otel = await attachOtelExport(this.traces, config, { log: this.log, integration: this.integration, deployment: this.definition.host.identity.deploymentId });
    this.log.info('exporting traces with OpenTelemetry', { protocol: config.protocol, sampler: config.sampler, thread: this.otel.stats.thread });
  }

  /** Runs one message through a flow by name, as a source would. */
  run(flowName: string, body: unknown = null, vars: Record<string, unknown> = {}): Promise<FlowResult> {
    const flow = this.definition.flows.get(flowName);
    if (!flow) throw new Error(`no flow named "${flowName}"`);
    return flow.runner.submit(new Message(body, vars));
  }

  /**
   * Runs one message through a flow's top-level steps from index `first` (up to, not including,
   * `end`): the message is what entered that step. For flow tests of a step range and re-runs.
   */
  runFrom(flowName: string, first: number, msg: Message, end?: number): Promise<FlowResult> {
    const flow = this.definition.flows.get(flowName);
    if (!flow) throw new Error(`no flow named "${flowName}"`);
    return flow.runner.runSlice(msg, first, end);
  }

  /**
   * Runs one message through a flow from any of its steps by setting path, nested ones included
   * (`flows.orders.steps[2].switch.cases[0].steps[1]`): the rest of the enclosing branch, then
   * the rest of the flow. Re-runs from a recorded step, and flow tests that start inside a branch.
   */
  runFromStep(flowName: string, stepPath: string, msg: Message): Promise<FlowResult> {
    const flow = this.definition.flows.get(flowName);
    if (!flow) throw new Error(`no flow named "${flowName}"`);
    return flow.runner.runFromStep(msg, stepPath);
  }

  describe(): RuntimeDescription {
    return {
      flows: [...this.definition.flows.values()].map((f) => ({ name: f.name, source: f.sourceType, details: f.source?.describe?.() })),
      connectors: this.definition.connectors.map((c) => ({ name: c.name, type: c.type, details: c.instance.describe?.() })),
    };
  }
}
