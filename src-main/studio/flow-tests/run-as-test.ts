import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Document, isMap, parseDocument, stringify } from 'yaml';
import type { SaveRunAsTestInput, SavedTestView } from '../../../shared/flow-test-types.ts';
import type { BodyView, CaptureDetail } from '../../../shared/request-types.ts';
import type { RunSummary } from '../../../shared/trace-types.ts';
import { StudioError } from '../studio-error.ts';
import type { StoredDetail } from '../traces/run-store.ts';
import type { Workspace } from '../workspace.ts';
import { loadTestFile } from './test-file-loader.ts';

/** Request headers a test never needs: the connection's own, and what every client adds. */
const NOISE = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'accept-encoding', 'user-agent', 'accept', 'keep-alive']);
/** Credentials are never written to a test file; the fixture says where one went. */
const SECRET = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key)$|token|secret|signature|password/i;
export const REDACTED = '<redacted>';

export interface RunAsTestContext {
  workspace: Workspace;
  summary: RunSummary;
  detail: StoredDetail;
  capture: CaptureDetail | undefined;
  input: SaveRunAsTestInput;
}

/**
 * Writes a stored run as a flow test: the input as a fixture file (`fixtures/<test>.json`,
 * credentials redacted), the outbound HTTP calls it made as stubs (method, path, recorded status and body),
 * and the observed result as the assertions the user kept. Adds to `<flow>.test.yaml` (or the file
 * named), refusing a name the file already has, and checks the result loads like any test file.
 */
export function testFromRun(c: RunAsTestContext): SavedTestView {
  const { workspace, summary, detail, capture, input } = c;
  const name = String(input.name ?? '').trim();
  if (!name) throw new StudioError('the test needs a name, e.g. "prices an order"');
  const file = input.file?.trim() || `${summary.flow}.test.yaml`;
  if (!/^[\w.-]+\.test\.ya?ml$/.test(file)) throw new StudioError(`"${file}" is not a test file name; use <name>.test.yaml beside the definitions`);
  const keep = new Set(input.keep ?? []);
  const output = (detail.output ?? {}) as { body?: unknown; vars?: Record<string, unknown> };

  const fixture: Record<string, unknown> = {};
  if (capture) {
    fixture.method = capture.method;
    fixture.path = capture.target;
    const headers = Object.fromEntries(capture.requestHeaders.filter(([k]) => !NOISE.has(k.toLowerCase())).map(([k, v]) => [k, SECRET.test(k) ? REDACTED : v]));
    Object.assign(fixture, bodyFields(capture.requestBody, headers));
    if (Object.keys(headers).length > 0) fixture.headers = headers;
  } else {
    const start = (detail.input ?? {}) as { body?: unknown; vars?: Record<string, unknown> };
    fixture.body = start.body ?? null;
    if (start.vars && Object.keys(start.vars).length > 0) fixture.vars = start.vars;
  }
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'test';
  const fixtureFile = `fixtures/${slug}.json`;

  const test: Record<string, unknown> = { description: `Saved from run ${summary.runId}.`, flow: summary.flow, input: { fixture: fixtureFile } };
  const http = detail.calls.filter((x) => x.kind === 'http' && typeof x.detail?.url === 'string' && typeof x.detail?.method === 'string');
  if (http.length > 0) {
    test.stubs = {
      http: http.map((x) => {
        const { delay: _delay, ...stub } = stubOfCall(x.detail as Parameters<typeof stubOfCall>[0], x.status);
        return stub;
      }),
    };
  }
  const expect: Record<string, unknown> = {};
  if (capture) {
    const response: Record<string, unknown> = {};
    if (keep.has('status')) response.status = capture.status;
    if (keep.has('headers')) {
      const wanted = capture.responseHeaders.filter(([k]) => ['content-type', 'location'].includes(k.toLowerCase()));
      if (wanted.length) response.headers = Object.fromEntries(wanted.map(([k, v]) => [k.toLowerCase(), v]));
    }
    if (keep.has('body')) {
      const body = bodyFields(capture.responseBody, {});
      if ('body' in body) response.body = body.body;
      else if ('raw' in body) response.body = body.raw;
    }
    if (Object.keys(response).length) expect.response = response;
  } else if (keep.has('body')) expect.body = output.body ?? null;
  if (keep.has('outcome')) expect.outcome = summary.outcome;
  if (keep.has('vars') && output.vars) expect.vars = output.vars;
  if (keep.has('calls') && http.length > 0) expect.calls = http.map((x) => ({ method: String(x.detail!.method).toUpperCase(), path: new URL(String(x.detail!.url)).pathname + new URL(String(x.detail!.url)).search }));
  test.expect = expect;

  const dir = workspace.dirOf(summary.integration);
  const existing = existsSync(join(dir, file)) ? workspace.readFile(summary.integration, file) : undefined;
  // A new file is block-style YAML like a hand-written one, under a line saying what it is.
  const doc: Document = existing?.trim() ? parseDocument(existing) : new Document({ tests: {} });
  if (!existing?.trim()) doc.commentBefore = ` Flow tests of ${summary.integration} (see docs/testing.md).`;
  const tests = doc.get('tests', true);
  if (isMap(tests) && tests.has(name)) throw new StudioError(`${file} already has a test named "${name}"; pick another name`);
  if (!isMap(tests)) doc.set('tests', doc.createNode({}));
  doc.setIn(['tests', name], doc.createNode(test));
  const text = doc.toString({ lineWidth: 0 });
  // What is written must load: a run that produced something the format cannot hold is refused here, not later.
  loadTestFile(join(dir, file), text);
  workspace.writeFile(summary.integration, fixtureFile, JSON.stringify(fixture, null, 2) + '\n');
  workspace.writeFile(summary.integration, file, text);
  return { integration: summary.integration, file, name, yaml: stringify({ [name]: test }, { lineWidth: 0 }) };
}

/** A recorded body as input/expectation fields: JSON as JSON, other text as raw, bytes as base64. */
function bodyFields(view: BodyView, headers: Record<string, string>): Record<string, unknown> {
  if (view.bytes === 0) return {};
  const type = view.contentType ?? Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  if (view.text !== undefined && /json/i.test(type ?? '')) {
    try {
      return { body: JSON.parse(view.text) };
    } catch {
      // Not JSON after all: kept as the exact text below.
    }
  }
  if (view.text !== undefined) return { raw: view.text, contentType: type ?? 'text/plain' };
  if (view.base64 !== undefined) return { rawBase64: view.base64, contentType: type ?? 'application/octet-stream' };
  return {};
}

/**
 * A recorded call as a stub: the same method, origin and path answered with the recorded status
 * and, when the trace kept it (text up to 64 KiB), the recorded body and content type.
 */
export function stubOfCall(call: { url: string; method: string; response?: { contentType?: string; body?: string } }, status: number | undefined) {
  const url = new URL(call.url);
  const stub: { method: string; origin: string; path: string; status: number; delay: number; headers?: Record<string, string>; body?: unknown } = {
    method: call.method.toUpperCase(),
    origin: url.origin,
    path: url.pathname + url.search,
    status: status ?? 200,
    delay: 0,
  };
  const recorded = call.response;
  if (recorded?.body !== undefined && recorded.body !== '') {
    let body: unknown = recorded.body;
    if (/json/i.test(recorded.contentType ?? '')) {
      try {
        body = JSON.parse(recorded.body);
      } catch {
        // Kept as the exact text.
      }
    }
    stub.body = body;
    if (recorded.contentType && typeof body === 'string') stub.headers = { 'content-type': recorded.contentType };
  }
  return stub;
}
