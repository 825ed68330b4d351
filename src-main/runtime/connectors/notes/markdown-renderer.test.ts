import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blocksToMarkdown } from './markdown-renderer.ts';
import { block, everySupportedBlock, text } from './testing/notes-fixtures.ts';

const golden = readFileSync(new URL('./testing/every-supported-block.md', import.meta.url), 'utf8');
const paragraph = (...parts: Record<string, unknown>[]) => block('paragraph', { rich_text: parts, color: 'default' });
const numbered = (t: string) => block('numbered_list_item', { rich_text: [text(t)], color: 'default' });

describe('Markdown rendering of notes blocks', () => {
  it('renders a page using every supported block and annotation exactly like the golden file', () => {
    expect(blocksToMarkdown(everySupportedBlock())).toBe(golden);
  });

  it('skips unsupported block types without error, with nothing left where they were', () => {
    const blocks = [
      paragraph(text('Before')),
      block('image', { type: 'external', external: { url: 'https://example.com/cat.png' }, caption: [] }),
      block('table', { table_width: 2, has_column_header: true, has_row_header: false }),
      block('child_page', { title: 'Sub page' }),
      block('toggle', { rich_text: [text('Hidden toggle')] }),
      block('synced_block', { synced_from: null }),
      paragraph(text('After')),
    ];
    expect(blocksToMarkdown(blocks)).toBe('Before\n\nAfter\n');
  });

  it('survives malformed input: non-objects, missing rich text, unknown annotations', () => {
    const blocks = [null, 42, 'text', { type: 'paragraph' }, { object: 'block' }, block('heading_2', {}), paragraph({ type: 'text', text: { content: 'ok' }, annotations: { underline: true, color: 'red' } })];
    expect(blocksToMarkdown(blocks)).toBe('## \n\nok\n');
  });

  it('renders an empty page as empty text', () => {
    expect(blocksToMarkdown([])).toBe('');
  });

  it('numbers consecutive items, starts again after another block, and is not interrupted by a skipped one', () => {
    const blocks = [numbered('a'), numbered('b'), block('divider', {}), numbered('c'), block('image', {}), numbered('d'), block('bulleted_list_item', { rich_text: [text('x')] }), numbered('e')];
    expect(blocksToMarkdown(blocks)).toBe('1. a\n2. b\n\n---\n\n1. c\n2. d\n- x\n1. e\n');
  });

  it('escapes text that would otherwise turn into formatting, but not inside code', () => {
    const blocks = [
      paragraph(text('2 * 3 = 6, snake_case, [not a link], a <tag>, ~tilde~ and a back\\slash')),
      paragraph(text('# not a heading\n> not a quote\n- not a list\n1. not numbered')),
      paragraph(text('x * y', { code: true }), text(' and '), text('a `tick`', { code: true })),
    ];
    expect(blocksToMarkdown(blocks)).toBe(
      '2 \\* 3 = 6, snake\\_case, \\[not a link\\], a \\<tag>, \\~tilde\\~ and a back\\\\slash\n\n' +
        '\\# not a heading\n\\> not a quote\n\\- not a list\n1\\. not numbered\n\n' +
        '`x * y` and `` a `tick` ``\n',
    );
  });

  it('keeps spaces outside emphasis markers and merges neighbours styled alike', () => {
    const blocks = [paragraph(text('a'), text(' bold ', { bold: true }), text('b'), text('one', { bold: true }), text('two', { bold: true }))];
    expect(blocksToMarkdown(blocks)).toBe('a **bold** b**onetwo**\n');
  });

  it('fences code containing backticks with a longer fence and leaves plain text unlabelled', () => {
    const blocks = [block('code', { rich_text: [text('```\nnested\n```')], language: 'plain text' })];
    expect(blocksToMarkdown(blocks)).toBe('````\n```\nnested\n```\n````\n');
  });

  it('keeps multi-line list items inside their item and renders a callout without an emoji icon', () => {
    const blocks = [
      block('bulleted_list_item', { rich_text: [text('first line\nsecond line')] }),
      block('callout', { rich_text: [text('Note')], icon: { type: 'external', external: { url: 'https://example.com/i.png' } } }),
    ];
    expect(blocksToMarkdown(blocks)).toBe('- first line\n  second line\n\n> Note\n');
  });
});
