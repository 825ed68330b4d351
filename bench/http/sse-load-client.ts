/**
 * Opens N concurrent SSE streams and counts frames. Prints `connected` once every stream has its
 * first frame, then `window <frames> <ms>` for the next `windowSeconds`, then exits.
 * usage: sse-load-client.ts <url> <streams> <windowSeconds>
 */
import { Agent, request } from 'node:http';

const [url, streamsArg, windowArg] = process.argv.slice(2);
const streams = Number(streamsArg);
const windowMs = Number(windowArg) * 1000;
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
let frames = 0;
let firstFrames = 0;
let errors = 0;

for (let i = 0; i < streams; i++) {
  const req = request(url, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
    let seen = false;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      // Each frame ends with a blank line; counting them is enough to measure delivery.
      for (let at = chunk.indexOf('\n\n'); at !== -1; at = chunk.indexOf('\n\n', at + 2)) frames++;
      if (!seen) {
        seen = true;
        if (++firstFrames === streams) startWindow();
      }
    });
    res.on('error', () => errors++);
  });
  req.on('error', () => errors++);
  req.end();
}

function startWindow(): void {
  console.log('connected');
  const start = frames;
  const t0 = Date.now();
  setTimeout(() => {
    console.log(`window ${frames - start} ${Date.now() - t0} errors ${errors}`);
    process.exit(0);
  }, windowMs);
}

setTimeout(() => {
  console.log(`timeout: only ${firstFrames} of ${streams} streams got a frame; errors ${errors}`);
  process.exit(1);
}, 60_000).unref();
