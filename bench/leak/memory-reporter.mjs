// Loaded into the process under test with --import (bench/leak only): reports its memory to the
// bench over the IPC channel every FLOW_LEAK_SAMPLE_MS, after a full collection when --expose-gc
// is on, so a sample is what is still referenced, not what the collector has not reached yet.
const every = Number(process.env.FLOW_LEAK_SAMPLE_MS ?? 10_000);
if (process.send) {
  const timer = setInterval(() => {
    globalThis.gc?.();
    const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
    process.send?.({ memory: { at: Date.now(), rss, heapUsed, heapTotal, external, arrayBuffers } });
  }, every);
  timer.unref();
  // The channel must not keep the process alive or change how it stops.
  process.channel?.unref();
}
