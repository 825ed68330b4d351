import { activationOf } from '../../../core/activation.ts';
import { implementBlock } from '../../../core/component.ts';
import { FlowError } from '../../../core/errors.ts';
import { blocksToMarkdown } from '../markdown-renderer.ts';
import { notesPageToMarkdownDef } from './notes-page-to-markdown.def.ts';

export const notesPageToMarkdown = implementBlock(notesPageToMarkdownDef, (s) => {
  const resultVar = s.resultVar?.trim() ? s.resultVar : undefined;
  return {
    process(msg) {
      const blocks = s.source.evaluate(activationOf(msg));
      if (!Array.isArray(blocks)) {
        throw new FlowError(`notes-page-to-markdown: source ${s.source.source} must give a list of blocks, got ${blocks === null ? 'null' : typeof blocks}`);
      }
      const markdown = blocksToMarkdown(blocks);
      if (resultVar) msg.vars[resultVar] = markdown;
      else msg.body = { contentType: 'text/markdown', rawData: markdown };
      return msg;
    },
  };
});
