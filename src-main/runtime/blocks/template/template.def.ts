import { defineBlock } from '../../core/component.ts';

export const templateDef = defineBlock({
  type: 'template',
  summary: 'Renders a template resource with the message into the body or a variable.',
  description:
    'The template is an integration resource of kind `template`, read from the platform once per run of the definition. Inside it, `{{ expression }}` holes are CEL over `body`, `vars` and `correlationID`; strings render verbatim, null as nothing, other values as compact JSON.',
  settings: {
    name: { type: 'string', required: true, description: 'Name of the template resource; may contain slashes.', example: 'emails/order-confirmation.txt' },
    resultVar: { type: 'string', description: 'Store the text in `vars.<resultVar>` instead of replacing the body.', example: 'emailText' },
    contentType: {
      type: 'string',
      description: 'Make the body raw content of this type (e.g. `text/html` for an http response) instead of a JSON string.',
      example: 'text/html; charset=utf-8',
    },
  },
  example: `- template:
    name: emails/order-confirmation.txt
    resultVar: emailText`,
});
