/** Settings every KV block shares: where the entry lives. */
export const namespaceSetting = {
  type: 'string',
  default: 'user',
  description:
    'KV namespace: `user` (ordinary storage), `user_volatile` (cheap to lose), `user_secrets` (secrets; refused when the platform keeps none), and the `system*` forms. Any name the platform routes is accepted.',
  example: 'user_volatile',
} as const;

export const keySetting = {
  type: 'cel',
  required: true,
  description: 'The key; may contain slashes.',
  example: '"orders/" + string(body.id)',
} as const;

export const expectedVersionSetting = {
  type: 'cel',
  description:
    'Write only if the stored version is this one: 0 creates and fails when the entry exists, a positive value must match (409 otherwise). Absent: write whatever is stored.',
  example: 'vars.orderVersion',
} as const;
