import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * CPU budgets for the processes of a bench: each named group of processes may use at most so
 * many cores' worth of CPU time (a CFS quota per 10 ms period, short so that a group that spent
 * its quota stalls the requests waiting on it for milliseconds, not tens), in a cgroup of its own, on
 * cgroup v1 (`cpu` controller) or v2 (`cpu.max`). A quota caps a group; it does not reserve the
 * cores for it, so on a machine shared with other work a group may get less than its budget.
 * Needs write access to the cgroup tree (root); `available` says whether budgets are in force.
 */
export interface CpuBudgets {
  readonly available: boolean;
  /** What is in force, or why nothing is. */
  readonly description: string;
  /** Puts the processes in the named group, capped at `cores` cores (created on first use). */
  give(name: string, cores: number, pids: number[]): void;
  /** The group's quota periods so far and those in which it ran out of quota (cpu.stat); undefined without budgets. */
  throttling(name: string): { periods: number; throttled: number } | undefined;
  /** Moves every process back to the root group and removes the groups. */
  close(): void;
}

const PERIOD_US = 10_000;

export function cpuBudgets(): CpuBudgets {
  const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers') && readFileSync('/sys/fs/cgroup/cgroup.controllers', 'utf8').split(/\s+/).includes('cpu');
  const root = v2 ? '/sys/fs/cgroup' : ['/sys/fs/cgroup/cpu', '/sys/fs/cgroup/cpu,cpuacct'].find((d) => existsSync(join(d, 'cpu.cfs_quota_us')));
  const base = root && join(root, `flow-bench-${process.pid}`);
  try {
    if (!root || !base) throw new Error('no cgroup cpu controller found');
    mkdirSync(base);
    if (v2) writeFileSync(join(base, 'cgroup.subtree_control'), '+cpu');
  } catch (err) {
    return {
      available: false,
      description: `no CPU budgets (${(err as Error).message}): only the taskset pinning holds`,
      give: () => {},
      throttling: () => undefined,
      close: () => {},
    };
  }
  const groups = new Map<string, string>();
  return {
    available: true,
    description: `CPU budgets by cgroup ${v2 ? 'v2 cpu.max' : 'v1 cpu.cfs_quota_us'} (a cap per group, over a ${PERIOD_US / 1000} ms period)`,
    give(name, cores, pids) {
      let dir = groups.get(name);
      if (!dir) {
        dir = join(base, name);
        mkdirSync(dir);
        const quota = Math.round(cores * PERIOD_US);
        if (v2) writeFileSync(join(dir, 'cpu.max'), `${quota} ${PERIOD_US}`);
        else {
          writeFileSync(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
          writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(quota));
        }
        groups.set(name, dir);
      }
      for (const pid of pids) writeFileSync(join(dir, 'cgroup.procs'), String(pid));
    },
    throttling(name) {
      const dir = groups.get(name);
      if (!dir) return undefined;
      const stat = readFileSync(join(dir, 'cpu.stat'), 'utf8');
      const field = (key: string): number => Number(new RegExp(`^${key} (\\d+)`, 'm').exec(stat)?.[1] ?? NaN);
      return { periods: field('nr_periods'), throttled: field('nr_throttled') };
    },
    close() {
      // A process may start another meanwhile (PostgreSQL forks a backend per connection): the
      // group is emptied until it stays empty, then removed.
      for (const dir of groups.values()) {
        for (let attempt = 0; attempt < 50; attempt++) {
          const pids = readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
          if (pids.length === 0) break;
          for (const pid of pids) {
            try {
              writeFileSync(join(root, 'cgroup.procs'), pid);
            } catch {
              // it exited meanwhile
            }
          }
        }
        removeGroup(dir);
      }
      removeGroup(base);
    },
  };
}

/** A group whose last process just exited may still read busy for a moment. */
function removeGroup(dir: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      rmdirSync(dir);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EBUSY' || attempt >= 100) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

/** The PostgreSQL server listening on `port` (its postmaster) and every process it started. */
export function postgresProcesses(port: number): number[] {
  const pids = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  const cmdline = (pid: number): string => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      return '';
    }
  };
  const postmaster = pids.find((pid) => /\/postgres\s/.test(cmdline(pid)) && new RegExp(`\\s-p ${port}(\\s|$)`).test(cmdline(pid)));
  if (postmaster === undefined) throw new Error(`no PostgreSQL server found listening on port ${port}`);
  const parentOf = (pid: number): number => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return -1;
    }
  };
  return [postmaster, ...pids.filter((pid) => parentOf(pid) === postmaster)];
}
