import type { CelEvaluation, DesignSetting } from '../../../../shared/flow-design.ts';

/** How the settings form shows a setting: which control, or none (lists, maps and steps are edited in the text). */
export type FieldKind = 'text' | 'cel' | 'number' | 'duration' | 'enum' | 'boolean' | 'connector' | 'flow';

export function fieldKind(s: DesignSetting): FieldKind | undefined {
  if (s.hidden) return undefined;
  if (s.type === 'string' && s.connectorType) return 'connector';
  if (s.type === 'string' && s.flowRef) return 'flow';
  if (s.type === 'string' && s.enum) return 'enum';
  switch (s.type) {
    case 'string':
      return 'text';
    case 'cel':
      return 'cel';
    case 'int':
    case 'number':
      return 'number';
    case 'duration':
      return 'duration';
    case 'boolean':
      return 'boolean';
    default:
      return undefined;
  }
}

/** As the loader reads them (docs/flows.md, Durations): units, combined (`1m30s`); a bare number only as 0. */
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;

/**
 * What a field's text means as a setting value, or what is wrong with it, as it is typed:
 * `undefined` value removes the setting (its default applies).
 */
export function parseField(kind: FieldKind, s: DesignSetting, text: string): { value: unknown } | { error: string } {
  const t = text.trim();
  if (t === '') return s.required ? { error: 'required' } : { value: undefined };
  switch (kind) {
    case 'number': {
      const n = Number(t);
      if (!Number.isFinite(n)) return { error: 'a number' };
      if (s.type === 'int' && !Number.isInteger(n)) return { error: 'a whole number' };
      if (s.minimum !== undefined && n < s.minimum) return { error: `at least ${s.minimum}` };
      if (s.maximum !== undefined && n > s.maximum) return { error: `at most ${s.maximum}` };
      return { value: n };
    }
    case 'duration':
      if (t === '0') return { value: 0 };
      return DURATION.test(t) ? { value: t } : { error: 'a duration with its unit, such as 500ms, 30s, 1m30s or 1h' };
    case 'boolean':
      return t === 'true' || t === 'false' ? { value: t === 'true' } : { error: 'true or false' };
    case 'enum':
      return s.enum?.includes(t) ? { value: t } : { error: `one of ${s.enum?.join(', ')}` };
    default:
      return { value: text };
  }
}

/** A setting's value as the field shows it. */
export function fieldText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const PREVIEW_CHARS = 120;

/**
 * What a CEL field's expression gave on the last real message, one line under the field: its
 * type and value (cut short), or why it failed on that message. Compile errors are the field's
 * error, not a preview.
 */
export function celPreview(result: CelEvaluation | undefined): { text: string; failed: boolean } | undefined {
  if (!result || (!result.ok && result.stage === 'compile')) return undefined;
  if (!result.ok) return { text: `fails on it: ${result.error}`, failed: true };
  const value = JSON.stringify(result.value) ?? String(result.value);
  return { text: `${result.type} ${value.length > PREVIEW_CHARS ? `${value.slice(0, PREVIEW_CHARS - 1)}…` : value}`, failed: false };
}
