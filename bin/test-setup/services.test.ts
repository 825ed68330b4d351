import { describe, expect, it } from 'vitest';
import { errorLine, lastLine, planService, testServices, uriFromOutput } from './services.ts';

const ferret = testServices.find((s) => s.name === 'FerretDB')!;
const postgres = testServices.find((s) => s.name === 'PostgreSQL')!;

describe('npm test starts the servers the suites need', () => {
  it("uses the user's own URI and starts nothing when the variable is already set", () => {
    expect(planService(ferret, { DOCSTORE_TEST_URI: 'mongodb://me@127.0.0.1:27017/' }, () => true)).toEqual({ action: 'from-env', uri: 'mongodb://me@127.0.0.1:27017/' });
  });

  it('starts a server whose script exists, and is silent about one whose script is not in the checkout', () => {
    expect(planService(ferret, {}, (path) => path === '.ci/ferretdb.sh')).toEqual({ action: 'start' });
    expect(planService(postgres, {}, (path) => path === '.ci/ferretdb.sh')).toEqual({ action: 'absent' });
  });

  it('passes each URI under the variable its suite reads', () => {
    expect(testServices.map((s) => [s.script, s.envVar])).toEqual([
      ['.ci/ferretdb.sh', 'DOCSTORE_TEST_URI'],
      ['.ci/postgres.sh', 'PLATFORM_TEST_POSTGRES_URL'],
    ]);
  });

  it('reads the URI from the last matching stdout line, ignoring anything else the script printed', () => {
    expect(uriFromOutput('/root/.cache/ferretdb-v1.24.0\nmongodb://flow:pw@127.0.0.1:4321/\n', 'mongodb://')).toBe('mongodb://flow:pw@127.0.0.1:4321/');
    expect(uriFromOutput('postgres://flow@127.0.0.1:5433/flow\n', 'postgres')).toBe('postgres://flow@127.0.0.1:5433/flow');
    expect(uriFromOutput('built\n', 'mongodb://')).toBeUndefined();
  });

  it("names why a start failed with the script's last stderr line", () => {
    expect(lastLine('ferretdb.sh: building\nferretdb.sh: Go is required to build FerretDB (go not on PATH)\n\n')).toBe('ferretdb.sh: Go is required to build FerretDB (go not on PATH)');
    expect(lastLine('')).toBe('no output');
  });

  it("names an install command's error line rather than the brace or notice it ends with", () => {
    const playwright = 'Failed to install browsers\nError: Download failure, code=1\n    at ChildProcess.<anonymous> (x.js:1:2)\nnpm warn Unknown env config "nodedir".\nError: getaddrinfo ENOTFOUND cdn.playwright.dev\n    at GetAddrInfoReqWrap.onlookupall\n{\n  code: \'ENOTFOUND\'\n}\n';
    expect(errorLine(playwright)).toBe('Error: getaddrinfo ENOTFOUND cdn.playwright.dev');
    expect(errorLine("W: Some index files failed to download\nE: Package 'chromium' has no installation candidate\n")).toBe("E: Package 'chromium' has no installation candidate");
    expect(errorLine('something odd happened\n')).toBe('something odd happened');
    expect(errorLine('')).toBe('no output');
  });
});
