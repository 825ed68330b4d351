import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FeedEvent } from '../../../shared/feed-events.ts';
import type { RunState } from '../../../shared/studio-api.ts';
import { type ComponentRegistry, defineBlock, implementBlock, loadRegistry } from '../../runtime/index.ts';
import { startStudioBackend, type StudioBackend } from '../studio-backend.ts';

const registry = await loadRegistry();

/** How many messages the test-wait block holds right now. */
let held = 0;
/** Messages test-wait blocks hold now: a test waits for its request to be in flight instead of sleeping. */
export const heldInTestWait = (): number => held;

/** A block that waits, so a test can hold a request in flight across a reload. */
const waitDef = defineBlock({
  type: 'test-wait',
  summary: 'Waits before passing the message on (tests only).',
  settings: { ms: { type: 'int', required: true, description: 'How long to wait, in milliseconds.' } },
});
const waitBlock = implementBlock(waitDef, (s) => ({
  async process(msg) {
    held++;
    try {
      await new Promise((r) => setTimeout(r, s.ms));
    } finally {
      held--;
    }
    return msg;
  },
}));

export const testRegistry: ComponentRegistry = { ...registry, blocks: new Map([...registry.blocks, [waitDef.type, waitBlock]]) };

export interface StudioHarness {
  backend: StudioBackend;
  workspaceDir: string;
  states: RunState[];
  feed: FeedEvent[];
  /** Resolves with the first run state of the integration that satisfies the check. */
  waitForState(integration: string, check: (s: RunState) => boolean, timeoutMs?: number): Promise<RunState>;
  /** Resolves with the first feed event that satisfies the check (the feed batches every 50 ms). */
  waitForFeed(check: (e: FeedEvent) => boolean, timeoutMs?: number): Promise<FeedEvent>;
  /** Stops this backend as a shutdown would and starts a new one on the same workspace and data folders. */
  restart(): Promise<StudioHarness>;
  close(): Promise<void>;
}

/**
 * A real studio backend (embedded platform, workspace, watcher, run manager, feed) over a temp
 * workspace holding the given integrations: `{ 'orders-api': { 'orders.yaml': '…' } }`.
 */
export async function startStudioHarness(integrations: Record<string, Record<string, string>>): Promise<StudioHarness> {
  const temp = mkdtempSync(join(tmpdir(), 'studio-test-'));
  const workspaceDir = join(temp, 'workspace');
  for (const [id, files] of Object.entries(integrations)) {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(workspaceDir, id, file, '..'), { recursive: true });
      writeFileSync(join(workspaceDir, id, file), text);
    }
  }
  return harnessOn(temp, workspaceDir);
}

async function harnessOn(temp: string, workspaceDir: string): Promise<StudioHarness> {
  const backend = await startStudioBackend({
    workspaceDir,
    dataDir: join(temp, 'data'),
    shell: 'web',
    registry: testRegistry,
    graceMs: 5_000,
    watchDebounceMs: 50,
  });
  const states: RunState[] = [];
  const feed: FeedEvent[] = [];
  const waiters = new Set<() => void>();
  backend.on('runState', (s) => {
    states.push(s);
    for (const w of waiters) w();
  });
  const stopFeed = backend.on('feed', (b) => feed.push(...b.events));
  return {
    backend,
    workspaceDir,
    states,
    feed,
    waitForState(integration, check, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const test = (): boolean => {
          const found = states.find((s) => s.integration === integration && check(s));
          if (found) {
            waiters.delete(w);
            clearTimeout(timer);
            resolve(found);
          }
          return found !== undefined;
        };
        const w = (): void => void test();
        const timer = setTimeout(() => {
          waiters.delete(w);
          reject(new Error(`no matching run state for ${integration} within ${timeoutMs} ms; saw ${JSON.stringify(states.filter((s) => s.integration === integration))}`));
        }, timeoutMs);
        if (!test()) waiters.add(w);
      });
    },
    async waitForFeed(check, timeoutMs = 10_000) {
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
        const found = feed.find(check);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`no matching feed event within ${timeoutMs} ms among ${feed.length}`);
    },
    async restart() {
      stopFeed();
      await backend.close();
      return harnessOn(temp, workspaceDir);
    },
    async close() {
      stopFeed();
      await backend.close();
      rmSync(temp, { recursive: true, force: true });
    },
  };
}
