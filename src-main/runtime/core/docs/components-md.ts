import type { ComponentDef } from '../component.ts';
import type { ComponentRegistry } from '../registry-types.ts';
import type { Setting, SettingsSpec } from '../setting-spec.ts';
import { defaultLabel, typeLabel } from './json-schema.ts';

/** docs/components.md, generated from the same specs that validate definitions. */
export function componentsMarkdown(registry: ComponentRegistry): string {
  const out: string[] = [
    '# Component reference',
    '',
    '<!-- Generated from the component specs by `npm run gen`; do not edit by hand. -->',
    '',
    'Every setting below is validated when a definition loads. CEL settings are compiled once at load.',
    'Durations are written with a unit: `250ms`, `5s`, `1m30s`.',
    '',
  ];
  const sections: Array<[string, ComponentDef[]]> = [
    ['Connectors', [...registry.connectors.values()].map((c) => c.def)],
    ['Sources', [...registry.sources.values()].map((s) => s.def)],
    ['Blocks', [...registry.blocks.values()].map((b) => b.def)],
  ];
  for (const [title, defs] of sections) {
    out.push(`## ${title}`, '');
    if (defs.length === 0) out.push('_None yet._', '');
    for (const def of [...defs].sort((a, b) => a.type.localeCompare(b.type))) {
      out.push(`### ${def.type}`, '', def.description ?? def.summary, '');
      if (def.kind === 'source' && def.connectorType) out.push(`Attaches to a \`${def.connectorType}\` connector.`, '');
      if (def.kind === 'source') out.push(`**A failed run** (its error chain does not handle it): ${def.onFailure}.`, '');
      const rows = flatten(def.settings, '');
      if (rows.length === 0) out.push('No settings.', '');
      else {
        out.push('| Setting | Type | Required | Default | Description |', '|---|---|---|---|---|');
        for (const [name, s] of rows) {
          out.push(`| \`${name}\` | ${typeLabel(s)} | ${s.required ? 'yes' : 'no'} | ${s.default === undefined ? '' : `\`${escapeCell(defaultLabel(s))}\``} | ${escapeCell(s.description)} |`);
        }
        out.push('');
      }
      if (def.example) out.push('```yaml', def.example, '```', '');
    }
  }
  return out.join('\n');
}

function flatten(spec: SettingsSpec, prefix: string): Array<[string, Setting]> {
  const rows: Array<[string, Setting]> = [];
  for (const [name, s] of Object.entries(spec)) {
    const full = prefix + name;
    rows.push([full, s]);
    if (s.type === 'object') rows.push(...flatten(s.fields, `${full}.`));
    if (s.type === 'list' && s.items.type === 'object') rows.push(...flatten(s.items.fields, `${full}[].`));
  }
  return rows;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
