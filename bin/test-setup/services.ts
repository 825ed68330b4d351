// The servers some suites need, started by `npm test` itself: FerretDB for the docstore suite
// (.ci/ferretdb.sh builds it once with Go) and, where .ci/postgres.sh exists, a private
// PostgreSQL for the platform's Postgres suite. Each script prints its URI on stdout and is
// stopped with the same RUN_DIR afterwards; the URI reaches the suites as one environment variable.

export interface TestService {
  /** The server, in the summary's words. */
  name: string;
  /** `bash <script> start RUN_DIR` prints a URI; `bash <script> stop RUN_DIR` stops it. */
  script: string;
  /** The variable the suite reads; when the user already set it, nothing is started. */
  envVar: string;
  uriPrefix: string;
  /** Test files under these paths skip without the server; the summary names this server as why. */
  testPaths: string[];
  /** What the user can do when the server could not be started. */
  remedy: string;
  /**
   * Arguments to the script that prepare the server without starting it (a build), run in the
   * background while the browser and tools are installed. Only for what needs no apt-get: apt's
   * lock would make the two wait for each other.
   */
  prepare?: string[];
}

export const testServices: TestService[] = [
  {
    name: 'FerretDB',
    script: '.ci/ferretdb.sh',
    envVar: 'DOCSTORE_TEST_URI',
    uriPrefix: 'mongodb://',
    testPaths: ['src-main/runtime/connectors/docstore/'],
    remedy: 'install Go (FerretDB is built from source once), or set DOCSTORE_TEST_URI to a MongoDB',
    prepare: ['build'],
  },
  {
    name: 'PostgreSQL',
    script: '.ci/postgres.sh',
    envVar: 'PLATFORM_TEST_POSTGRES_URL',
    uriPrefix: 'postgres',
    testPaths: ['src-main/platform/'],
    remedy: 'see .ci/postgres.sh, or set PLATFORM_TEST_POSTGRES_URL to a PostgreSQL',
  },
];

export type ServicePlan = { action: 'from-env'; uri: string } | { action: 'absent' } | { action: 'start' };

/** The user's own URI wins; a service whose script is not in this checkout is silently not needed. */
export function planService(service: TestService, env: Record<string, string | undefined>, exists: (path: string) => boolean): ServicePlan {
  const uri = env[service.envVar];
  if (uri) return { action: 'from-env', uri };
  if (!exists(service.script)) return { action: 'absent' };
  return { action: 'start' };
}

/** The URI a start script printed: its last stdout line with the expected scheme. */
export function uriFromOutput(stdout: string, uriPrefix: string): string | undefined {
  return stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith(uriPrefix))
    .at(-1);
}

/** The last non-empty line of a script's stderr: why it failed, for the summary. */
export function lastLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? 'no output'
  );
}

/**
 * Why an install command failed, in one line: its last line that reads as an error (apt's `E:`,
 * a Node `Error:`), else its last line. Playwright's installer ends with an error object's
 * closing brace, and apt-get with notices, so the last line alone says nothing.
 */
export function errorLine(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('npm warn'));
  return lines.filter((line) => /^(E:|Error\b|error\b|ERR!|fatal\b)/.test(line)).at(-1) ?? lines.at(-1) ?? 'no output';
}
