/**
 * The runtime under load, in its own process so wrk and the harness do not share its core.
 * `flow-server.ts` serves POST /orders (http source → set → response);
 * `flow-server.ts --sse <seconds>` serves GET /ticks, 10 frames a second for that long.
 */
import { defineBlock, implementBlock, type AnyBlockImpl } from '../../src-main/runtime/core/component.ts';
import { Runtime } from '../../src-main/runtime/core/runtime.ts';
import { registry } from '../../src-main/runtime/registry.ts';
import { ORDERS_FLOW as ORDERS } from './order-flow.ts';

function ticks(seconds: number): string {
  const steps = Array.from({ length: seconds * 10 }, (_, i) => `      - sse-event: {event: tick, data: '{"n": ${i}}'}\n      - pause: {every: 100ms}\n`).join('');
  return `connectors:
  http: {type: http, host: 127.0.0.1, port: 0}
flows:
  ticks:
    workers: 5000
    source: {type: http, path: /ticks, methods: [GET], sse: {enabled: true}}
    steps:
${steps}`;
}

// The SSE load needs a flow that takes time between frames; no product block does, so the bench
// brings one. It keeps an absolute schedule (start + n × every) so frames come exactly 10 a second.
const pauseDef = defineBlock({ type: 'pause', summary: 'Bench only: waits for the next tick.', settings: { every: { type: 'duration', required: true, description: 'Tick interval.' } } });
const pause = implementBlock(pauseDef, (s) => ({
  process(msg) {
    const now = Date.now();
    const start = typeof msg.vars.tickStart === 'number' ? msg.vars.tickStart : (msg.vars.tickStart = now);
    const n = (msg.vars.ticks = (typeof msg.vars.ticks === 'number' ? msg.vars.ticks : 0) + 1);
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, start + n * s.every - now), msg));
  },
}));

const sseAt = process.argv.indexOf('--sse');
const yaml = sseAt === -1 ? ORDERS : ticks(Number(process.argv[sseAt + 1] ?? 10));
const runtime = Runtime.load([{ file: 'bench.yaml', text: yaml }], {
  registry: { ...registry, blocks: new Map<string, AnyBlockImpl>([...registry.blocks, ['pause', pause as unknown as AnyBlockImpl]]) },
  env: {},
});
await runtime.start();
const url = runtime.describe().connectors[0].details?.url;
console.log(`listening ${url}`);
process.on('SIGTERM', () => void runtime.stop(500).then(() => process.exit(0)));
