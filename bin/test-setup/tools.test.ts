import { describe, expect, it } from 'vitest';
import { aptInstallCommands, missingToolLine, testTools } from './tools.ts';

const curl = testTools.find((tool) => tool.command === 'curl')!;
const strace = testTools.find((tool) => tool.command === 'strace')!;

describe('npm test installs the command-line tools the suites drive', () => {
  it('installs every missing tool with one apt-get, and runs no apt-get when nothing is missing', () => {
    expect(aptInstallCommands([curl, strace])).toEqual([
      ['apt-get', 'update', '-qq'],
      ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'curl', 'strace'],
    ]);
    expect(aptInstallCommands([])).toEqual([]);
  });

  it('stops on a missing curl but only names the skipped test for a missing strace, each saying what to install', () => {
    expect(curl.required).toBe(true);
    expect(strace.required).toBe(false);
    expect(missingToolLine(curl)).toBe('npm test needs curl on PATH for the http connector tests and could not install it: install curl (Debian/Ubuntu: `apt-get install curl`)');
    expect(missingToolLine(strace)).toBe('strace is not installed, so the key-file durability test skips: install strace (Debian/Ubuntu: `apt-get install strace`)');
    expect(strace.testPaths).toEqual(['src-main/platform/key-file-durability.test.ts']);
  });
});
