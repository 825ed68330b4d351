import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cli = join(process.cwd(), 'bin/flow-studio.js');

async function validate(...paths: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, [cli, 'validate', ...paths]);
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

describe('flow-studio validate', () => {
  it('accepts every example', async () => {
    const { code, stdout } = await validate('examples/');
    expect(stdout).toMatch(/^ok: \d+ flows? in \d+ files?/m);
    expect(code).toBe(0);
  });

  it('prints all three mistakes of a file with their locations and exits non-zero', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'validate-'));
    writeFileSync(
      join(dir, 'broken.yaml'),
      `flows:
  orders:
    workers: 0
    steps:
      - filter: {condition: 'body.total >'}
      - log: {message: '"hi"', level: loud}
`,
    );
    const { code, stdout } = await validate(dir);
    expect(code).toBe(1);
    const lines = stdout.trim().split('\n');
    expect(lines.slice(0, 3)).toEqual([
      expect.stringMatching(/broken\.yaml:3:14 flows\.orders\.workers: must be at least 1, got 0$/),
      expect.stringMatching(/broken\.yaml:5:\d+ flows\.orders\.steps\[0\]\.filter\.condition: CEL: /),
      expect.stringMatching(/broken\.yaml:6:39 flows\.orders\.steps\[1\]\.log\.level: "loud" is not one of debug, info, warn, error$/),
    ]);
    expect(lines.at(-1)).toBe('3 problems in 1 file');
  });

  it('refuses CEL that calls what the runtime does not declare, at the call, naming it and the close name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'validate-'));
    writeFileSync(
      join(dir, 'calls.yaml'),
      `connectors:
  web: {type: http, port: 0}
flows:
  count:
    source: {type: http, path: /count, methods: [POST]}
    steps:
      - set: {body: '{"n": sise(body.items)}'}
      - set: {body: 'body.n.noSuchMethod()'}
      - filter: {condition: 'body.items.all(x)'}
      - log: {message: '1 + "a"'}
`,
    );
    const { code, stdout } = await validate(dir);
    expect(code).toBe(1);
    const lines = stdout.trim().split('\n');
    expect(lines.slice(0, 4)).toEqual([
      expect.stringMatching(/calls\.yaml:7:28 flows\.count\.steps\[0\]\.set\.body: CEL: unknown function "sise"; did you mean "size"\?$/),
      expect.stringMatching(/calls\.yaml:8:29 flows\.count\.steps\[1\]\.set\.body: CEL: unknown method "noSuchMethod"/),
      expect.stringMatching(/calls\.yaml:9:41 flows\.count\.steps\[2\]\.filter\.condition: CEL: \.all\(\) takes 2 or 3 arguments, got 1$/),
      expect.stringMatching(/calls\.yaml:10:25 flows\.count\.steps\[3\]\.log\.message: CEL: no such overload: int \+ string$/),
    ]);
    expect(lines.at(-1)).toBe('4 problems in 1 file');
  });

  it('reports in one pass a source naming a connector that does not exist beside its flow\'s step mistakes, and nothing against a declared connector whose own settings are wrong', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'validate-'));
    writeFileSync(
      join(dir, 'hooks.yaml'),
      `connectors:
  web: {type: http, port: 0, bogus: 1}
flows:
  orders:
    source: {type: http, connector: web, path: /orders}
    steps:
      - set: {body: '1'}
  refunds:
    source: {type: http, connector: webb, path: /refunds}
    steps:
      - set: {body: 'body.total >'}
`,
    );
    const { code, stdout } = await validate(dir);
    expect(code).toBe(1);
    expect(stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/hooks\.yaml:2:30 connectors\.web\.bogus: unknown setting "bogus"; /),
      expect.stringMatching(/hooks\.yaml:9:37 flows\.refunds\.source\.connector: no connector named "webb"; http connectors: web$/),
      expect.stringMatching(/hooks\.yaml:11:\d+ flows\.refunds\.steps\[0\]\.set\.body: CEL: /),
      '',
      '3 problems in 1 file',
    ]);
  });

  it('names a connector of unknown type once, at its type, not again at each source and block naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'validate-'));
    writeFileSync(
      join(dir, 'proxy.yaml'),
      `connectors:
  web: {type: htp, port: 0}
  catalog: {type: http-clint, baseURL: 'http://127.0.0.1:9090'}
flows:
  items:
    source: {type: http, connector: web, path: /items}
    steps:
      - rest: {connector: catalog, method: GET, path: /items}
`,
    );
    const { code, stdout } = await validate(dir);
    expect(code).toBe(1);
    expect(stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/proxy\.yaml:2:15 connectors\.web\.type: unknown connector type "htp"; did you mean "http"\?$/),
      expect.stringMatching(/proxy\.yaml:3:19 connectors\.catalog\.type: unknown connector type "http-clint"; did you mean "http-client"\?$/),
      '',
      '2 problems in 1 file',
    ]);
  });

  it('does not ask a source with no connector: for one of its type when the only connector declared has an unknown type', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'validate-'));
    writeFileSync(
      join(dir, 'app.yaml'),
      `connectors:
  web: {type: htp, port: 0}
flows:
  items:
    source: {type: http, path: /items}
    steps:
      - set: {body: '1'}
`,
    );
    const { code, stdout } = await validate(dir);
    expect(code).toBe(1);
    expect(stdout.trim().split('\n')).toEqual([expect.stringMatching(/app\.yaml:2:15 connectors\.web\.type: unknown connector type "htp"; did you mean "http"\?$/), '', '1 problem in 1 file']);
  });

  it('still asks for a connector of the type when none is declared at all', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'validate-'));
    writeFileSync(join(dir, 'app.yaml'), `flows:\n  items:\n    source: {type: http, path: /items}\n    steps:\n      - set: {body: '1'}\n`);
    const { code, stdout } = await validate(dir);
    expect(code).toBe(1);
    expect(stdout).toMatch(/flows\.items\.source\.connector: needs a http connector; declare one under connectors:/);
  });
});

