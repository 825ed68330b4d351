import { entriesOf, isMap, isUint, Optional, type CelHandler } from './cel-values.ts';

/** The part of cel-go's optionals library cel-js lacks; the syntax and the rest are cel-js'. */

function isZero(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === 0n || v === '') return true;
  if (isUint(v)) return v.value === 0n;
  if (v instanceof Uint8Array || Array.isArray(v)) return v.length === 0;
  if (isMap(v)) return entriesOf(v).length === 0;
  return false;
}

export const OPTIONALS: Record<string, CelHandler> = {
  'optional.ofNonZeroValue(dyn): optional<dyn>': (v: unknown) => (isZero(v) ? Optional.none() : Optional.of(v)),
};
