import { type TraceHub, type TraceSink } from '../../runtime/index.ts';
import type { DefinitionVersion } from '../../../shared/trace-types.ts';
import type { RunStore } from './run-store.ts';

interface Attached {
  integration: string;
  version: DefinitionVersion | undefined;
  detach: () => void;
}

/**
 * Records every run of the studio's runtimes into the run store. Messages before and after each
 * step (snapshots, a copy per step) are asked for only while a studio window listens; without
 * one the store still learns each run's steps, outcome and timing.
 */
export class RunRecorder {
  private readonly hubs = new Map<TraceHub, Attached>();
  private snapshots = false;

  constructor(private readonly store: RunStore) {}

  /** Starts recording a runtime's traces, each run naming `version`; returns the function that stops it. */
  attach(integration: string, traces: TraceHub, version?: DefinitionVersion): () => void {
    this.hubs.set(traces, { integration, version, detach: traces.add(this.sinkFor(integration, version)) });
    return () => {
      this.hubs.get(traces)?.detach();
      this.hubs.delete(traces);
    };
  }

  /** Turns snapshots on or off for every attached runtime (a window opened, the last one closed). */
  setSnapshots(on: boolean): void {
    if (on === this.snapshots) return;
    this.snapshots = on;
    for (const [hub, attached] of this.hubs) {
      // The hub reads a sink's wish when it is added, so the sink is replaced.
      const next = hub.add(this.sinkFor(attached.integration, attached.version));
      attached.detach();
      attached.detach = next;
    }
  }

  private sinkFor(integration: string, version: DefinitionVersion | undefined): TraceSink {
    const store = this.store;
    return {
      snapshots: this.snapshots,
      emit: (event) => store.record(integration, event, version),
      // The request's server span is the run's parent in an exported trace; the studio shows the
      // request itself on the run (its capture), so only calls made by steps are asked for, and
      // a studio exporting nothing builds no server span per request.
      serverSpans: false,
      span: (span) => store.recordSpan(integration, span),
    };
  }
}
