import { useEffect, useState } from 'react';
import type { ResourceKind, ResourceNameCheck } from '../../../shared/resource-types.ts';
import { resourceCalls } from '../../api/resource-calls.ts';

/**
 * The platform's verdict on a resource name while it is typed: asked a moment after the last
 * keystroke, and only the answer to the latest name is kept.
 */
export function useNameCheck(integration: string, kind: ResourceKind, name: string, except?: string): ResourceNameCheck | undefined {
  const [result, setResult] = useState<{ name: string; check: ResourceNameCheck } | undefined>();
  useEffect(() => {
    if (name === '' || name === except) return;
    let current = true;
    const timer = setTimeout(() => {
      resourceCalls.checkResourceName(integration, kind, name, except).then(
        (check) => current && setResult({ name, check }),
        (err: unknown) => current && setResult({ name, check: { ok: false, code: 'check_failed', message: err instanceof Error ? err.message : String(err) } }),
      );
    }, 120);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [integration, kind, name, except]);
  if (name === '' || name === except) return undefined;
  // A verdict on an older name is not shown for the new one.
  return result?.name === name ? result.check : undefined;
}
