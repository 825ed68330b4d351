// The command-line tools some suites drive as a user would: curl (the http connector's tests and
// one e2e test) and strace (the platform's key-file durability test watches the syscalls). Missing
// ones are installed with one apt-get as root on Debian/Ubuntu; what is still missing then either
// stops `npm test` (a tool a whole suite needs) or leaves its test skipped, named in the summary.

export interface TestTool {
  command: string;
  /** The Debian/Ubuntu package that provides it. */
  aptPackage: string;
  /** true: without it `npm test` stops; false: the tests that need it skip and say so. */
  required: boolean;
  /** Which tests use it, for the messages. */
  usedBy: string;
  /** The test files that skip without it, so the summary gives this tool as their reason. */
  testPaths: string[];
}

export const testTools: TestTool[] = [
  { command: 'curl', aptPackage: 'curl', required: true, usedBy: 'the http connector tests', testPaths: [] },
  { command: 'strace', aptPackage: 'strace', required: false, usedBy: 'the key-file durability test', testPaths: ['src-main/platform/key-file-durability.test.ts'] },
];

/** The apt-get command lines installing the packages of the missing tools, or none. */
export function aptInstallCommands(missing: TestTool[]): string[][] {
  if (missing.length === 0) return [];
  return [
    ['apt-get', 'update', '-qq'],
    ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing.map((tool) => tool.aptPackage)],
  ];
}

/** The line printed for a tool still missing after the install attempt. */
export function missingToolLine(tool: TestTool): string {
  const fix = `install ${tool.command} (Debian/Ubuntu: \`apt-get install ${tool.aptPackage}\`)`;
  return tool.required ? `npm test needs ${tool.command} on PATH for ${tool.usedBy} and could not install it: ${fix}` : `${tool.command} is not installed, so ${tool.usedBy} skips: ${fix}`;
}
