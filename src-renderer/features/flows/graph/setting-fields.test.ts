import { describe, expect, it } from 'vitest';
import type { DesignSetting } from '../../../../shared/flow-design.ts';
import { celPreview, fieldKind, parseField } from './setting-fields.ts';

const setting = (s: Partial<DesignSetting>): DesignSetting => ({ type: 'string', description: '', ...s });

describe('the settings form’s fields', () => {
  it('pick a control from the spec: connectors and enums as pickers, lists left to the text', () => {
    expect(fieldKind(setting({ connectorType: 'http-client' }))).toBe('connector');
    expect(fieldKind(setting({ enum: ['GET', 'POST'] }))).toBe('enum');
    expect(fieldKind(setting({ type: 'duration' }))).toBe('duration');
    expect(fieldKind(setting({ type: 'cel' }))).toBe('cel');
    expect(fieldKind(setting({ type: 'list' }))).toBeUndefined();
    expect(fieldKind(setting({ hidden: true }))).toBeUndefined();
  });

  it('say what is wrong as it is typed, and an empty optional field removes the setting', () => {
    expect(parseField('number', setting({ type: 'int', minimum: 1 }), '0')).toEqual({ error: 'at least 1' });
    expect(parseField('number', setting({ type: 'int' }), '1.5')).toEqual({ error: 'a whole number' });
    expect(parseField('number', setting({ type: 'int' }), '16')).toEqual({ value: 16 });
    const duration = setting({ type: 'duration' });
    expect(parseField('duration', duration, '30 s')).toEqual({ error: 'a duration with its unit, such as 500ms, 30s, 1m30s or 1h' });
    expect(parseField('duration', duration, '30')).toEqual({ error: 'a duration with its unit, such as 500ms, 30s, 1m30s or 1h' });
    expect(parseField('duration', duration, '1m30s')).toEqual({ value: '1m30s' });
    expect(parseField('duration', duration, '0')).toEqual({ value: 0 });
    expect(parseField('text', setting({ required: true }), '  ')).toEqual({ error: 'required' });
    expect(parseField('text', setting({}), '')).toEqual({ value: undefined });
  });
});

describe('the preview under a CEL field', () => {
  it('shows the type and value the expression gave on the last message, cut short past 120 characters', () => {
    expect(celPreview({ ok: true, type: 'int', value: 2 })).toEqual({ text: 'int 2', failed: false });
    expect(celPreview({ ok: true, type: 'string', value: 'hi' })).toEqual({ text: 'string "hi"', failed: false });
    const long = celPreview({ ok: true, type: 'list', value: Array.from({ length: 100 }, (_, i) => i) })!;
    expect(long.text).toHaveLength('list '.length + 120);
    expect(long.text.endsWith('…')).toBe(true);
  });

  it('says why the expression failed on that message, and leaves compile errors to the field', () => {
    expect(celPreview({ ok: false, stage: 'evaluate', error: 'No such key: total' })).toEqual({ text: 'fails on it: No such key: total', failed: true });
    expect(celPreview({ ok: false, stage: 'compile', error: 'Unexpected token', offset: 3 })).toBeUndefined();
    expect(celPreview(undefined)).toBeUndefined();
  });
});
