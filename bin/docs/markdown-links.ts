import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** A link or image a markdown file names, with the line it is on. */
export interface MarkdownRef {
  file: string;
  line: number;
  kind: 'image' | 'link';
  target: string;
}

/** Every markdown file git tracks or is about to (untracked but not ignored), relative to root. */
export function markdownFiles(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: root, encoding: 'utf8' });
  return [...new Set(out.split('\n').filter((f) => f !== '' && existsSync(join(root, f))))].sort();
}

/**
 * The text outside fenced code blocks, line by line (fenced lines blanked so line numbers hold);
 * inline code dropped too unless `keepInlineCode` (a heading's anchor is made from it).
 */
function proseLines(text: string, keepInlineCode = false): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const m = /^\s*(```|~~~)/.exec(line);
    if (m) {
      if (fence === undefined) fence = m[1];
      else if (fence === m[1]) fence = undefined;
      return '';
    }
    if (fence !== undefined) return '';
    return keepInlineCode ? line : line.replace(/`[^`]*`/g, '');
  });
}

/** Markdown links and images (`[t](x)`, `![t](x)`) and HTML `<img src>`, outside code. */
export function refsOf(file: string, text: string): MarkdownRef[] {
  const refs: MarkdownRef[] = [];
  proseLines(text).forEach((line, i) => {
    for (const m of line.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      refs.push({ file, line: i + 1, kind: m[1] ? 'image' : 'link', target: m[2] });
    }
    for (const m of line.matchAll(/<img\s[^>]*src="([^"]+)"/g)) refs.push({ file, line: i + 1, kind: 'image', target: m[1] });
  });
  return refs;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(path: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(readFileSync(path, 'utf8'), true)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = headingSlug(m[1].replace(/`/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/**
 * Why a reference does not resolve, or undefined when it does. Only references inside the
 * repository are checked: a URL with a scheme or a bare `#anchor` elsewhere is left to the reader.
 */
export function brokenReason(root: string, ref: MarkdownRef): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref.target)) return undefined;
  const [pathPart, anchor] = ref.target.split('#', 2);
  const target = pathPart === '' ? join(root, ref.file) : resolve(root, dirname(ref.file), decodeURIComponent(pathPart));
  if (!existsSync(target)) return `${ref.target} does not exist`;
  if (anchor && statSync(target).isFile() && target.endsWith('.md') && !anchorsOf(target).has(anchor)) {
    return `${ref.target}: no heading makes the anchor #${anchor}`;
  }
  return undefined;
}
