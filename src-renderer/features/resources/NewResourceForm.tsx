import { useState } from 'react';
import type { ResourceEntry, ResourceKind } from '../../../shared/resource-types.ts';
import { resourceCalls } from '../../api/resource-calls.ts';
import { useNameCheck } from './use-name-check.ts';
import { messageOf } from './when.ts';

const STARTERS: Record<ResourceKind, string> = {
  env: '# NAME=value, one per line; a later env file overrides an earlier one\n',
  template: 'Hello {{ body.name }}\n',
};

/** Creates an env file or a template; the name is checked against the platform's rules as it is typed. */
export function NewResourceForm({ integration, onCreated }: { integration: string; onCreated: (e: ResourceEntry) => void }) {
  const [kind, setKind] = useState<ResourceKind>('env');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const check = useNameCheck(integration, kind, name);

  const create = async (): Promise<void> => {
    try {
      const entry = await resourceCalls.createResource(integration, kind, name, STARTERS[kind]);
      setName('');
      setError(undefined);
      onCreated(entry);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  return (
    <form
      className="rs-form"
      aria-label="New resource"
      onSubmit={(e) => {
        e.preventDefault();
        if (check?.ok) void create();
      }}
    >
      <div className="rs-row">
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value as ResourceKind)}>
            <option value="env">env file</option>
            <option value="template">template</option>
          </select>
        </label>
        <label style={{ flex: 1 }}>
          Name
          <input
            value={name}
            placeholder={kind === 'env' ? 'local.env' : 'emails/welcome.txt'}
            aria-invalid={check ? !check.ok : undefined}
            aria-describedby="new-resource-check"
            onChange={(e) => setName(e.currentTarget.value)}
          />
        </label>
      </div>
      <p id="new-resource-check" className={`rs-hint ${check && !check.ok ? 'rs-error' : 'muted'}`} role={check && !check.ok ? 'alert' : undefined}>
        {check && !check.ok ? check.message : `Saved as ${kind}/${name || '…'} in the integration folder.`}
      </p>
      <div className="rs-row">
        <button type="submit" className="primary" disabled={!check?.ok}>
          Create
        </button>
        {error ? <span className="rs-error">{error}</span> : null}
      </div>
    </form>
  );
}
