/**
 * Renders notes blocks (the `results` of GET /blocks/{id}/children) to Markdown. Supported:
 * paragraphs, headings 1–3, bulleted and numbered list items, quotes, callouts, to-dos, code
 * blocks and dividers, with bold, italic, strikethrough, code and link annotations. Every other
 * block type is skipped, and nested children are not fetched (spec 3 §2.2).
 */

interface Annotations {
  bold?: boolean;
  italic?: boolean;
  strikethrough?: boolean;
  code?: boolean;
}

interface Span {
  text: string;
  annotations: Annotations;
  link: string | undefined;
}

type Rendered = { markdown: string; listItem: boolean };

const HEADINGS: Record<string, string> = { heading_1: '#', heading_2: '##', heading_3: '###' };

export function blocksToMarkdown(blocks: readonly unknown[]): string {
  const out: Rendered[] = [];
  let number = 0;
  for (const block of blocks) {
    if (!isRecord(block) || typeof block.type !== 'string') continue;
    const type = block.type;
    const content = isRecord(block[type]) ? (block[type] as Record<string, unknown>) : {};
    const rendered = renderBlock(type, content, type === 'numbered_list_item' ? number + 1 : 0);
    if (!rendered) continue;
    // Numbering runs over consecutive numbered items. A skipped block leaves no trace in the
    // Markdown, so it does not restart the count either: the reader sees one list.
    number = type === 'numbered_list_item' ? number + 1 : 0;
    out.push(rendered);
  }
  let markdown = '';
  out.forEach((r, i) => {
    if (i > 0) markdown += r.listItem && out[i - 1].listItem ? '\n' : '\n\n';
    markdown += r.markdown;
  });
  return markdown === '' ? '' : `${markdown}\n`;
}

function renderBlock(type: string, content: Record<string, unknown>, number: number): Rendered | undefined {
  const text = (): string => richText(content.rich_text);
  switch (type) {
    case 'paragraph': {
      const t = text();
      return t.trim() === '' ? undefined : { markdown: escapeLineStarts(t), listItem: false };
    }
    case 'heading_1':
    case 'heading_2':
    case 'heading_3':
      return { markdown: `${HEADINGS[type]} ${text().replace(/\n+/g, ' ')}`, listItem: false };
    case 'bulleted_list_item':
      return { markdown: listItem('- ', text()), listItem: true };
    case 'numbered_list_item':
      return { markdown: listItem(`${number}. `, text()), listItem: true };
    case 'to_do':
      return { markdown: listItem(content.checked === true ? '- [x] ' : '- [ ] ', text()), listItem: true };
    case 'quote':
      return { markdown: quoted(text()), listItem: false };
    case 'callout': {
      const icon = isRecord(content.icon) && content.icon.type === 'emoji' && typeof content.icon.emoji === 'string' ? `${content.icon.emoji} ` : '';
      return { markdown: quoted(icon + text()), listItem: false };
    }
    case 'code':
      return { markdown: codeBlock(plainText(content.rich_text), content.language), listItem: false };
    case 'divider':
      return { markdown: '---', listItem: false };
    default:
      return undefined;
  }
}

function listItem(marker: string, text: string): string {
  // Continuation lines are indented under the marker so they stay inside the item.
  return marker + escapeLineStarts(text).split('\n').join(`\n${' '.repeat(marker.length)}`);
}

function quoted(text: string): string {
  return escapeLineStarts(text).split('\n').map((line) => (line === '' ? '>' : `> ${line}`)).join('\n');
}

function codeBlock(code: string, language: unknown): string {
  const lang = typeof language === 'string' && language !== 'plain text' ? language.replace(/\s+/g, '-') : '';
  const longestRun = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${lang}\n${code}\n${fence}`;
}

/* ---------- Rich text ---------- */

function richText(value: unknown): string {
  return mergeSpans(spansOf(value)).map(renderSpan).join('');
}

function plainText(value: unknown): string {
  return spansOf(value).map((s) => s.text).join('');
}

function spansOf(value: unknown): Span[] {
  if (!Array.isArray(value)) return [];
  const spans: Span[] = [];
  for (const part of value) {
    if (!isRecord(part)) continue;
    const text = isRecord(part.text) && typeof part.text.content === 'string' ? part.text.content : typeof part.plain_text === 'string' ? part.plain_text : '';
    const linkObject = isRecord(part.text) && isRecord(part.text.link) ? part.text.link : undefined;
    const link = typeof linkObject?.url === 'string' ? linkObject.url : typeof part.href === 'string' ? part.href : undefined;
    const annotations = isRecord(part.annotations) ? (part.annotations as Annotations) : {};
    spans.push({ text, link, annotations: { bold: annotations.bold === true, italic: annotations.italic === true, strikethrough: annotations.strikethrough === true, code: annotations.code === true } });
  }
  return spans;
}

/** Neighbours styled alike become one span, so `**a****b**` comes out as `**ab**`. */
function mergeSpans(spans: Span[]): Span[] {
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && last.link === span.link && sameAnnotations(last.annotations, span.annotations)) last.text += span.text;
    else merged.push({ ...span });
  }
  return merged;
}

function sameAnnotations(a: Annotations, b: Annotations): boolean {
  return a.bold === b.bold && a.italic === b.italic && a.strikethrough === b.strikethrough && a.code === b.code;
}

function renderSpan(span: Span): string {
  // Markers hug the text: `** bold**` is not bold in Markdown, so edge spaces stay outside.
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(span.text)!;
  const [, lead, core, trail] = match;
  if (core === '') return span.text;
  const a = span.annotations;
  let out = a.code ? codeSpan(core) : escapeInline(core);
  if (a.strikethrough) out = `~~${out}~~`;
  if (a.italic) out = `*${out}*`;
  if (a.bold) out = `**${out}**`;
  if (span.link) out = `[${out}](${span.link.replace(/[()\s]/g, encodeURIComponent)})`;
  return lead + out + trail;
}

function codeSpan(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longestRun + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** Characters that would otherwise turn plain text into formatting. */
function escapeInline(text: string): string {
  return text.replace(/[\\*_`~[\]<]/g, (c) => `\\${c}`);
}

/** A line of text that starts like a heading, quote or list would become one. */
function escapeLineStarts(text: string): string {
  return text
    .replace(/^(\s*)([#>+=-])/gm, (_, space: string, marker: string) => `${space}\\${marker}`)
    .replace(/^(\s*\d+)([.)])(?=\s|$)/gm, (_, number: string, dot: string) => `${number}\\${dot}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
