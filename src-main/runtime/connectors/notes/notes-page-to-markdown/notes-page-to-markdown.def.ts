import { defineBlock } from '../../../core/component.ts';

export const notesPageToMarkdownDef = defineBlock({
  type: 'notes-page-to-markdown',
  summary: 'Renders notes blocks to Markdown (no API call).',
  description:
    'Renders paragraphs, headings 1 to 3, bulleted and numbered list items, quotes, callouts, to-dos (`- [ ]`/`- [x]`), code blocks with their language and dividers, ' +
    'with bold, italic, strikethrough, code and link annotations. Unsupported block types are skipped and nested children are not fetched. ' +
    'Without `resultVar` the body becomes the Markdown as raw content of type `text/markdown`.',
  settings: {
    source: { type: 'cel', default: 'body.results', description: 'The blocks array, e.g. the results of notes-retrieve-blocks.' },
    resultVar: { type: 'string', description: 'Variable receiving the Markdown text; when empty the body is replaced by the Markdown as raw content `text/markdown`.' },
  },
  example: `- notes-page-to-markdown: {}`,
});
