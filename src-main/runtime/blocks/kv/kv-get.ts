import { implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { FlowError } from '../../core/errors.ts';
import { kvGetDef } from './kv-get.def.ts';
import { keyOf } from './kv-errors.ts';
import { decodeValue } from './kv-value.ts';
import { platformCall } from '../platform-call.ts';

export const kvGet = implementBlock(kvGetDef, (s, ctx) => {
  const secretNamespace = s.namespace.endsWith('_secrets');
  return {
    async process(msg, run) {
      const key = keyOf(await s.key.evaluate(activationOf(msg)), ctx.path);
      const entry = await platformCall(run, msg.correlationId, 'kv.get', { namespace: s.namespace }, () => ctx.host.services.kv.get(s.namespace, key));
      if (!entry && s.onMissing === 'drop') return null;
      if (!entry && s.onMissing === 'fail') throw new FlowError(`no entry "${key}" in namespace ${s.namespace}`, { status: 404 });
      // A value read from a secret namespace is masked in logs, traces and errors from now on.
      if (entry && secretNamespace) ctx.host.protectSecret(Buffer.from(entry.value).toString('utf8'));
      const value = entry ? decodeValue(entry.value, s.format, `entry "${key}" in ${s.namespace}`) : null;
      if (s.resultVar) msg.vars[s.resultVar] = value;
      else msg.body = value;
      if (s.versionVar) msg.vars[s.versionVar] = entry?.version ?? 0;
      return msg;
    },
  };
});
