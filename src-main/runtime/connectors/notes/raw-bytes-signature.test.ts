import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curl } from '../http/test-support/curl.ts';
import { serveYaml, type Served } from '../http/test-support/serve-yaml.ts';

const TOKEN = 'secret_configured_verification_token';
const sign = (bytes: Buffer) => `sha256=${createHmac('sha256', TOKEN).update(bytes).digest('hex')}`;

let dir: string;
let written = 0;
/** curl sends a file's bytes exactly with --data-binary @file. */
function writeBody(bytes: Buffer): string {
  const file = join(dir, `body-${++written}`);
  writeFileSync(file, bytes);
  return file;
}

// Spec 2 §2.2: rawBodyVar keeps the exact request bytes, so a signature over them verifies
// whatever their encoding.
describe('a signed webhook whose body is not valid UTF-8', () => {
  let s: Served;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flow-raw-bytes-'));
    s = await serveYaml(`connectors:
  http: {type: http, host: 127.0.0.1, port: 0}
  notes: {type: notes, token: ntn_integration_token, verificationToken: ${TOKEN}}
flows:
  webhook:
    source: {type: http, path: /hook, headers: [X-Notes-Signature], rawBodyVar: rawBody}
    steps:
      - notes-verify-request: {connector: notes}
      - set: {body: '{"verified": true, "rawIsText": type(vars.rawBody) == string, "note": body.note}'}
`);
  });
  afterAll(async () => {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (bytes: Buffer, signature: string) =>
    curl([`${s.url}/hook`, '-H', 'content-type: application/json', '-H', `x-notes-signature: ${signature}`, '--data-binary', `@${writeBody(bytes)}`]);

  it('verifies the HMAC over the exact bytes and leaves the variable as bytes', async () => {
    const bytes = Buffer.concat([Buffer.from('{"note": "a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"}')]);
    const res = await post(bytes, sign(bytes));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ verified: true, rawIsText: false, note: 'a\uFFFD\uFFFDb' });
  });

  it('keeps a UTF-8 body readable text in the variable', async () => {
    const bytes = Buffer.from('{"note": "Grüße"}');
    const res = await post(bytes, sign(bytes));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ verified: true, rawIsText: true, note: 'Grüße' });
  });

  it('still rejects a signature over other bytes', async () => {
    const bytes = Buffer.concat([Buffer.from('{"note": "a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"}')]);
    const mangled = Buffer.from(bytes.toString('utf8'));
    const res = await post(bytes, sign(mangled));
    expect(res.status).toBe(401);
  });
});
