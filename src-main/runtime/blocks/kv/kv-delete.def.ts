import { defineBlock } from '../../core/component.ts';
import { expectedVersionSetting, keySetting, namespaceSetting } from './kv-settings.ts';

export const kvDeleteDef = defineBlock({
  type: 'kv-delete',
  summary: 'Deletes a key/value entry on the platform; deleting a missing entry succeeds.',
  description: 'With `expectedVersion` (a positive version) the delete happens only at that version, else the message fails with status 409 in `vars.error.status`.',
  settings: {
    namespace: namespaceSetting,
    key: keySetting,
    expectedVersion: { ...expectedVersionSetting, description: 'Delete only at this version (409 otherwise); absent or 0 deletes whatever is stored.' },
  },
  example: `- kv-delete:
    key: '"carts/" + vars.sessionId'`,
});
