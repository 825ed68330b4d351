import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds (user + system) a process has used so far, all its threads. */
export function cpuSeconds(pid: number): number {
  return ticksOf(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/**
 * CPU seconds one thread of a process has used; its main thread by default, which is a Node
 * server's request thread. Steadier than the whole process where its other threads share a core
 * with the load generator, and it shows what work moved off the request thread.
 */
export function threadCpuSeconds(pid: number, tid = pid): number {
  return ticksOf(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
}

function ticksOf(stat: string): number {
  // Fields after the `(comm)` part; utime and stime are the 14th and 15th of the whole line.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * CPU milliseconds a process has run so far, all its threads, from the scheduler's nanosecond
 * accounting (/proc/<pid>/task/<tid>/schedstat): where `cpuSeconds` counts 10 ms ticks, this tells
 * a start of 180 ms from one of 185. Threads that already exited are not counted.
 */
export function cpuMsPrecise(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ns / 1e6;
}

/** Resident set size in MiB. */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

/**
 * Waits, up to 5 s, until a server has used no CPU for 200 ms (`cpu` reads its CPU seconds so
 * far): the work a round left (queued traces, a WAL checkpoint, a collection) is done.
 */
export async function settle(cpu: () => number): Promise<void> {
  const deadline = Date.now() + 5_000;
  let last = cpu();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = cpu();
    if (now - last < 0.005) return;
    last = now;
  }
}
