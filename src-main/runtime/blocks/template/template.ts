import { implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { templateOf } from './template-resources.ts';
import { templateDef } from './template.def.ts';

export const template = implementBlock(templateDef, (s, ctx) => ({
  async process(msg) {
    const text = (await templateOf(ctx.host, s.name)).render(activationOf(msg));
    const value = s.contentType ? { contentType: s.contentType, rawData: text } : text;
    if (s.resultVar) msg.vars[s.resultVar] = value;
    else msg.body = value;
    return msg;
  },
}));
