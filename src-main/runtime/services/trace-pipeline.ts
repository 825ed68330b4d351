import type { Logger, SecretRedactor } from '../core/logger.ts';
import type { TraceEntry } from '../../../shared/platform-api/telemetry.ts';
import type { TraceHub, TraceSink } from '../core/trace.ts';
import { TelemetryPipeline, type RecordExporter, type TelemetryPipelineOptions, type TelemetryPipelineStats } from './telemetry-pipeline.ts';
import { TraceSampler, type TraceSampling } from './trace-sampling.ts';

export interface TracePipelineStats extends TelemetryPipelineStats {
  /** Runs left out by sampling (never counted as dropped). */
  sampledOut: number;
}

/**
 * The telemetry pipeline for a runtime's trace hub: records, and the calls steps made (spans),
 * that the sampler admits are queued unmasked (the exporter masks each batch once), and a
 * destination gone for good (a 501) takes the pipeline off the hub, so flows stop paying for
 * records nobody receives. The request an http route answered (a `server` span) is not taken:
 * it is OpenTelemetry's, and with nobody else taking it a run joins its caller directly.
 */
export class TracePipeline extends TelemetryPipeline<TraceEntry> {
  private readonly sampler: TraceSampler | undefined;
  private detach: (() => void) | undefined;
  private hub: TraceHub | undefined;
  private readonly waitOnlySaturated: boolean;

  constructor(
    exporter: RecordExporter<TraceEntry>,
    opts: Omit<TelemetryPipelineOptions, 'what'> & {
      sampling: TraceSampling;
      /**
       * maxWaitMs only while the hub's request thread is saturated, for an exporter whose every
       * batch costs a request: then records held to the interval are what V8 promotes and later
       * stops the thread to collect, while with time to spare that collection costs a request nothing.
       */
      waitOnlySaturated?: boolean;
    },
    log: Logger,
    usable?: () => boolean,
  ) {
    super(exporter, { ...opts, what: 'trace records' }, log, usable, () => this.detach?.());
    this.sampler = opts.sampling.ratio < 1 ? new TraceSampler(opts.sampling) : undefined;
    this.waitOnlySaturated = opts.waitOnlySaturated === true;
  }

  protected override waitsShort(): boolean {
    return !this.waitOnlySaturated || this.hub?.admission.saturated === true;
  }

  /** Exports the hub's records while attached. */
  attach(hub: TraceHub): () => void {
    this.hub = hub;
    this.chargeTo = (ms) => hub.admission.charge(ms);
    const sampler = this.sampler;
    const take = sampler ? (e: TraceEntry) => sampler.admit(e, this.push) : this.push;
    const sink: TraceSink = { unredacted: true, emit: take, span: take, serverSpans: false };
    const detach = hub.add(sink);
    this.detach = detach;
    return detach;
  }

  /** The hub's, read at export time: secrets declared after attaching are masked too. */
  protected override redactor(): SecretRedactor | undefined {
    return this.hub?.redactor;
  }

  override get counts(): TracePipelineStats {
    return { ...super.counts, sampledOut: this.sampler?.sampledOut ?? 0 };
  }
}
