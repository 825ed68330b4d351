import type { CursorContext } from '../analysis/cursor-context.ts';

/**
 * Whether the schema's completion (monaco-yaml) can offer anything where the cursor is. It
 * validates the whole document against the schema on every request: ~300 ms of its worker on a
 * 2,000-line definition, taken from the editor on a two-core machine. Inside a CEL expression our
 * own completion answers, and inside free text the schema has nothing to offer but the example or
 * default it gives for an empty value, so neither asks the schema. Keys, lists, objects, enums and
 * places the analysis does not know still do.
 */
export function schemaMayComplete(context: CursorContext, lineBeforeCursor: string): boolean {
  if (context.cel) return false;
  const setting = context.setting;
  if (context.onKey || !setting || setting.type !== 'string') return true;
  if (setting.enum || setting.connectorType || setting.flowRef) return true;
  return /:\s*$/.test(lineBeforeCursor);
}
