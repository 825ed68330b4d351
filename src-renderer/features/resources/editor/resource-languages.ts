import { monaco } from '../../flows/editor/monaco-setup.ts';

/** Monaco language ids of the two resource kinds. */
export const languageOf = (kind: 'env' | 'template'): string => (kind === 'env' ? 'dotenv' : 'flow-template');

let registered = false;

/**
 * Highlighting for env files (the .env convention of shared/env-file.ts: `NAME=value`,
 * `export`, comments, quoted values) and for templates (text with `{{ CEL }}` holes).
 * Registered once, on first use.
 */
export function registerResourceLanguages(): void {
  if (registered) return;
  registered = true;
  monaco.languages.register({ id: 'dotenv', aliases: ['env file'] });
  monaco.languages.setMonarchTokensProvider('dotenv', {
    tokenizer: {
      root: [
        [/^\s*#.*$/, 'comment'],
        [/^(\s*)((?:export\s+)?)([A-Za-z_][\w.-]*)(\s*)(=)/, ['', 'keyword', 'type', '', 'delimiter']],
        [/\s+#.*$/, 'comment'],
        [/"/, 'string', '@double'],
        [/'/, 'string', '@single'],
        [/[^\s"'#]+/, 'string'],
        [/\s+/, ''],
      ],
      double: [
        [/[^\\"]+/, 'string'],
        [/\\./, 'string.escape'],
        [/"/, 'string', '@pop'],
      ],
      single: [
        [/[^']+/, 'string'],
        [/'/, 'string', '@pop'],
      ],
    },
  });
  monaco.languages.setLanguageConfiguration('dotenv', { comments: { lineComment: '#' } });

  monaco.languages.register({ id: 'flow-template', aliases: ['template'] });
  monaco.languages.setMonarchTokensProvider('flow-template', {
    tokenizer: {
      root: [
        [/\{\{/, { token: 'tag', next: '@expression' }],
        [/[^{]+/, ''],
        [/\{/, ''],
      ],
      expression: [
        [/\}\}/, { token: 'tag', next: '@pop' }],
        [/"([^"\\]|\\.)*"/, 'string'],
        [/'([^'\\]|\\.)*'/, 'string'],
        [/\d+(\.\d+)?/, 'number'],
        [/\b(true|false|null|in)\b/, 'keyword'],
        [/\b(body|vars|correlationID|error)\b/, 'variable'],
        [/[A-Za-z_]\w*/, 'identifier'],
        [/[^}"'\w\s]+/, 'operator'],
        [/\s+/, ''],
        [/\}/, 'operator'],
      ],
    },
  });
}
