import { defineBlock } from '../../core/component.ts';
import { formatSetting } from './kv-value.ts';
import { expectedVersionSetting, keySetting, namespaceSetting } from './kv-settings.ts';

export const kvPutDef = defineBlock({
  type: 'kv-put',
  summary: 'Writes a key/value entry on the platform, optionally only at an expected version.',
  description:
    'With `expectedVersion` the write is a compare-and-set: a conflict fails the message with status 409 in `vars.error.status`. Values larger than the platform accepts (`kv.maxValueBytes`) fail before anything is sent. The message passes on unchanged.',
  settings: {
    namespace: namespaceSetting,
    key: keySetting,
    value: { type: 'cel', default: 'body', description: 'The value to store.', example: '{"status": "paid", "at": vars.paidAt}' },
    format: formatSetting,
    expectedVersion: expectedVersionSetting,
    versionVar: { type: 'string', description: 'Store the new version in `vars.<versionVar>`.', example: 'orderVersion' },
  },
  example: `- kv-put:
    key: '"orders/" + vars.id'
    value: body
    expectedVersion: vars.orderVersion`,
});
