import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokenReason, headingSlug, markdownFiles, refsOf } from './markdown-links.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const files = markdownFiles(root);
const refs = files.flatMap((f) => refsOf(f, readFileSync(join(root, f), 'utf8')));

describe('the documentation points only at what exists', () => {
  it('finds the documents and their pictures (the check below is not vacuous)', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'docs/index.md']));
    expect(refs.filter((r) => r.kind === 'link').length).toBeGreaterThan(20);
  });

  it('every image a markdown file shows exists in the repository', () => {
    const broken = refs.filter((r) => r.kind === 'image').map((r) => ({ r, why: brokenReason(root, r) })).filter((b) => b.why);
    expect(broken.map(({ r, why }) => `${r.file}:${r.line}: ${why}`)).toEqual([]);
  });

  it('every relative link leads to a file or folder that exists, and its #anchor to a heading there', () => {
    const broken = refs.filter((r) => r.kind === 'link').map((r) => ({ r, why: brokenReason(root, r) })).filter((b) => b.why);
    expect(broken.map(({ r, why }) => `${r.file}:${r.line}: ${why}`)).toEqual([]);
  });

  it('every picture in docs/img/ is shown by a document and stays small (npm run docs:screenshots writes them)', () => {
    const shown = new Set(refs.filter((r) => r.kind === 'image').map((r) => resolve(root, r.file, '..', r.target)));
    const pictures = readdirSync(join(root, 'docs/img'));
    expect(pictures.length).toBeGreaterThanOrEqual(4);
    expect(pictures.filter((p) => !shown.has(join(root, 'docs/img', p)))).toEqual([]);
    expect(pictures.filter((p) => statSync(join(root, 'docs/img', p)).size > 150 * 1024)).toEqual([]);
  });

  it('docs/index.md lists every document in docs/', () => {
    const index = readFileSync(join(root, 'docs/index.md'), 'utf8');
    const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md') && f !== 'index.md');
    expect(docs.filter((d) => !index.includes(`](${d})`))).toEqual([]);
  });

  it('every file path CONTRIBUTING.md names exists (a recipe never sends anyone to a file that moved)', () => {
    const text = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
    const paths = [...text.matchAll(/`((?:src-main|src-renderer|shared|e2e|bin|bench|docs|examples|\.ci)\/[^`\s]*)`/g)].map((m) => m[1]);
    // `<name>` marks the part a recipe's reader chooses; `*` a family of files.
    const concrete = paths.filter((p) => !/[<*]/.test(p));
    expect(concrete.length).toBeGreaterThan(30);
    expect(concrete.filter((p) => brokenReason(root, { file: 'CONTRIBUTING.md', line: 0, kind: 'link', target: p }))).toEqual([]);
  });
});

describe('headingSlug', () => {
  it('makes the anchors GitHub makes', () => {
    expect(headingSlug('How tracing stays cheap')).toBe('how-tracing-stays-cheap');
    expect(headingSlug('`env:` — declared variables')).toBe('env--declared-variables');
    expect(headingSlug('Assertions (expect)')).toBe('assertions-expect');
    expect(headingSlug('Migrating from cel-js')).toBe('migrating-from-cel-js');
  });
});
