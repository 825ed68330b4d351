import { defineBlock } from '../../core/component.ts';
import { formatSetting } from './kv-value.ts';
import { keySetting, namespaceSetting } from './kv-settings.ts';

export const kvGetDef = defineBlock({
  type: 'kv-get',
  summary: 'Reads a key/value entry from the platform into the body or a variable.',
  description:
    'A missing entry is a miss, not a failure: the result is null (or the message is dropped or fails, per `onMissing`). When the platform has no KV storage and its policy is `noop`, every read misses.',
  settings: {
    namespace: namespaceSetting,
    key: keySetting,
    format: formatSetting,
    resultVar: { type: 'string', description: 'Store the value in `vars.<resultVar>` instead of replacing the body.', example: 'order' },
    versionVar: {
      type: 'string',
      description: 'Also store the entry version (0 on a miss) in `vars.<versionVar>`, for a later `kv-put` with `expectedVersion`.',
      example: 'orderVersion',
    },
    onMissing: {
      type: 'string',
      enum: ['null', 'drop', 'fail'],
      default: 'null',
      description: 'On a miss: `null` stores null, `drop` drops the message, `fail` fails it with status 404 in `vars.error.status`.',
    },
  },
  example: `- kv-get:
    key: '"orders/" + vars.id'
    resultVar: order
    versionVar: orderVersion`,
});
