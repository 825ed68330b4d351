#!/usr/bin/env node
// The runtime pod's init container: writes the definitions of the version tag in FLOW_SNAPSHOT_ID
// into DIR, fetched from the platform (GET /snapshots/{id}/bundle, the tag's frozen tar), so
// `flow-studio run DIR` starts exactly what was tagged. Uses FLOW_PLATFORM_API_URL and
// FLOW_PLATFORM_API_TOKEN_FILE (or FLOW_PLATFORM_API_TOKEN) like the runtime. Plain JavaScript:
// it runs before anything else.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

const [dir] = process.argv.slice(2);
const { FLOW_PLATFORM_API_URL: base, FLOW_PLATFORM_API_TOKEN_FILE: tokenFile, FLOW_SNAPSHOT_ID: snapshot } = process.env;
if (!dir || !base || !snapshot) {
  console.error('usage: FLOW_PLATFORM_API_URL=… FLOW_SNAPSHOT_ID=… [FLOW_PLATFORM_API_TOKEN_FILE=… | FLOW_PLATFORM_API_TOKEN=…] fetch-snapshot.js DIR');
  process.exit(2);
}
let token = process.env.FLOW_PLATFORM_API_TOKEN;
if (tokenFile) {
  try {
    token = readFileSync(tokenFile, 'utf8').trim();
  } catch (err) {
    console.error(`fetch-snapshot: cannot read FLOW_PLATFORM_API_TOKEN_FILE ${tokenFile}: ${err.code ?? err.message}`);
    process.exit(1);
  }
}
const url = `${base.replace(/\/+$/, '')}/snapshots/${encodeURIComponent(snapshot)}/bundle`;
// The platform may still be starting: retried for FLOW_PLATFORM_API_DISCOVERY_BUDGET, as the runtime's start is.
const budget = process.env.FLOW_PLATFORM_API_DISCOVERY_BUDGET || '30s';
const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(budget.trim());
if (!m) {
  console.error(`fetch-snapshot: FLOW_PLATFORM_API_DISCOVERY_BUDGET must be a duration (30s, 2m) or a number of seconds, got "${budget}"`);
  process.exit(2);
}
const deadline = Date.now() + Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000 }[m[2] ?? 's']);
let res;
for (let attempt = 1; ; attempt++) {
  try {
    res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (res.status < 500) break;
  } catch (err) {
    if (Date.now() >= deadline) {
      // fetch's own message is only "fetch failed"; the reason (refused, no such host) is its cause.
      console.error(`fetch-snapshot: cannot reach the platform at ${base} (FLOW_PLATFORM_API_URL) after ${attempt} attempt${attempt === 1 ? "" : "s"} within ${budget}: ${err.cause?.message ?? err.message}`);
      process.exit(1);
    }
  }
  if (Date.now() >= deadline) break;
  await new Promise((r) => setTimeout(r, 1000));
}
if (!res || !res.ok) {
  console.error(`fetch-snapshot: GET ${url} answered ${res?.status}: ${(await res?.text())?.slice(0, 512)}`);
  process.exit(1);
}
mkdirSync(dir, { recursive: true });
const tar = spawnSync('tar', ['-x', '-f', '-', '-C', dir, '--no-same-owner'], { input: Buffer.from(await res.arrayBuffer()), stdio: ['pipe', 'inherit', 'inherit'] });
if (tar.status !== 0) {
  console.error(`fetch-snapshot: tar could not unpack the bundle of ${snapshot} into ${dir}`);
  process.exit(1);
}
console.log(`fetch-snapshot: ${snapshot} unpacked into ${dir}`);
