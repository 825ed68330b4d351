import { describe, expect, it } from 'vitest';
import { editableText, previewBytes } from './value-preview.ts';

describe('value previews', () => {
  it('pretty-prints JSON', () => {
    expect(previewBytes(Buffer.from('{"a":[1,2]}'))).toEqual({ kind: 'json', text: '{\n  "a": [\n    1,\n    2\n  ]\n}', bytes: 11, truncated: false });
  });

  it('shows UTF-8 text as it is', () => {
    expect(previewBytes(Buffer.from('grüße\nzwei'))).toMatchObject({ kind: 'text', text: 'grüße\nzwei' });
  });

  it('shows binary as a hex dump with an ASCII column', () => {
    const preview = previewBytes(Buffer.from([0x00, 0x01, 0x41, 0xff]));
    expect(preview).toEqual({ kind: 'binary', hex: `00000000  ${'00 01 41 ff'.padEnd(47)}  |..A.|`, bytes: 4, truncated: false });
  });

  it('offers JSON and text for editing, and nothing for binary', () => {
    expect(editableText(Buffer.from('[1]'))).toEqual({ text: '[\n  1\n]', format: 'json' });
    expect(editableText(Buffer.from('plain'))).toEqual({ text: 'plain', format: 'text' });
    expect(editableText(Buffer.from([0, 159, 146, 150]))).toBeUndefined();
  });
});
