import type { WrkResult } from './wrk.ts';

/** One server's reading in an at-once round: wrk's summary and the server's CPU over it. */
export interface AtOnceReading extends WrkResult {
  /** Server CPU time (user + system, all its processes) per request, in microseconds. */
  cpuUs: number;
}

/** One round of a contender loaded at once with the baseline: both readings, taken over the same seconds. */
export interface AtOnceRound {
  baseline: AtOnceReading;
  contender: AtOnceReading;
}

export interface AtOnceServer {
  name: string;
  url: string;
  /** CPU seconds its processes have used so far. */
  cpu(): number;
  /** Continues its processes (SIGCONT) or stops them (SIGSTOP): only the pair measured runs. */
  signal(signal: 'SIGSTOP' | 'SIGCONT'): void;
  /** Told the requests each of its loads answered, the warm-ups included. */
  answered(requests: number): void;
}

export interface AtOnceOptions {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  /** One server's own wrk; the pair's two run on the load core at once. */
  load(url: string, seconds: number): Promise<WrkResult>;
  /** Waits until a server's work left from the round is done (its CPU counts in its round). */
  settle(cpu: () => number): Promise<void>;
  progress?(round: number, contender: string, r: AtOnceRound): void;
}

/**
 * Each contender loaded at the same time as the baseline, both pinned to the one server core, a
 * wrk each on the load core. The scheduler gives each half of the core, so their req/s stand in
 * the inverse ratio of their CPU per request, and a slow spell of the machine (steal time, a
 * neighbour) slows both within the same seconds, where rounds taken one after the other catch
 * it in one and not the other: on a shared VM two bare node:http servers measured in turn read
 * 0.61 of each other. The baseline measured against a second copy of itself is this design's
 * noise floor. Every other server of `all` (the same objects) is stopped meanwhile.
 */
export async function measureAtOnce(baseline: AtOnceServer, contenders: readonly AtOnceServer[], all: readonly AtOnceServer[], opts: AtOnceOptions): Promise<Map<string, AtOnceRound[]>> {
  const results = new Map<string, AtOnceRound[]>(contenders.map((c) => [c.name, []]));
  for (let round = 1; round <= opts.rounds; round++) {
    for (const contender of contenders) {
      const others = all.filter((s) => s !== baseline && s !== contender);
      for (const s of others) s.signal('SIGSTOP');
      const load = async (s: AtOnceServer, seconds: number): Promise<WrkResult> => {
        const w = await opts.load(s.url, seconds);
        s.answered(w.requests);
        return w;
      };
      try {
        if (opts.warmupSeconds > 0) await Promise.all([load(baseline, opts.warmupSeconds), load(contender, opts.warmupSeconds)]);
        const before = [baseline.cpu(), contender.cpu()];
        const [b, c] = await Promise.all([load(baseline, opts.seconds), load(contender, opts.seconds)]);
        await Promise.all([opts.settle(() => baseline.cpu()), opts.settle(() => contender.cpu())]);
        const r: AtOnceRound = {
          baseline: { ...b, cpuUs: ((baseline.cpu() - before[0]) / b.requests) * 1e6 },
          contender: { ...c, cpuUs: ((contender.cpu() - before[1]) / c.requests) * 1e6 },
        };
        results.get(contender.name)!.push(r);
        opts.progress?.(round, contender.name, r);
      } finally {
        for (const s of others) s.signal('SIGCONT');
      }
    }
  }
  return results;
}
