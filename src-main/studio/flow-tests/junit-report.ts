import type { SuiteResult } from './test-suite.ts';
import { failureText } from './text-report.ts';

/** JUnit XML, one testsuite per test file, the shape CI servers (GitLab, Jenkins, GitHub actions) read. */
export function junitReport(suite: SuiteResult): string {
  const byFile = new Map<string, SuiteResult['results']>();
  for (const r of suite.results) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const failures = suite.results.filter((r) => !r.passed).length + suite.broken.length;
  lines.push(`<testsuites name="flow-studio test" tests="${suite.results.length + suite.broken.length}" failures="${failures}" time="${seconds(suite.durationMs)}">`);
  for (const b of suite.broken) {
    lines.push(`  <testsuite name="${esc(b.file)}" tests="1" failures="1">`);
    lines.push(`    <testcase classname="${esc(b.file)}" name="load"><failure message="the test file does not load">${esc(b.problems.join('\n'))}</failure></testcase>`);
    lines.push('  </testsuite>');
  }
  for (const [file, results] of byFile) {
    const failed = results.filter((r) => !r.passed).length;
    const time = results.reduce((n, r) => n + r.durationMs, 0);
    lines.push(`  <testsuite name="${esc(file)}" tests="${results.length}" failures="${failed}" time="${seconds(time)}">`);
    for (const r of results) {
      const open = `    <testcase classname="${esc(file)}" name="${esc(r.name)}" time="${seconds(r.durationMs)}"`;
      if (r.passed) lines.push(`${open}/>`);
      else {
        const message = r.failures.map((f) => `${f.what}: ${f.message}`).join('; ');
        lines.push(`${open}><failure message="${esc(message)}">${esc(r.failures.map(failureText).join('\n\n'))}</failure></testcase>`);
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}
