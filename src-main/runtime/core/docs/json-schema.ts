import type { ComponentDef } from '../component.ts';
import { formatDuration } from '../duration.ts';
import { envEntrySpec, flowSpec } from '../load/definition-format.ts';
import type { ComponentRegistry } from '../registry-types.ts';
import type { Setting, SettingsSpec } from '../setting-spec.ts';

type Schema = Record<string, unknown>;

const ENV_REFERENCE = { type: 'string', pattern: '\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}' };
const DURATION = { type: 'string', pattern: '^(\\d+(\\.\\d+)?(ms|s|m|h))+$' };

/**
 * The JSON Schema of a definition file, generated from the component specs alone. The studio's
 * YAML editor validates and completes against it; hover shows `markdownDescription`.
 */
export function definitionSchema(registry: ComponentRegistry): Schema {
  const defs: Record<string, Schema> = {};
  const blocks = [...registry.blocks.values()].sort((a, b) => a.def.type.localeCompare(b.def.type));
  for (const b of blocks) defs[`block.${b.def.type}`] = objectSchema(b.def.settings, b.def);
  defs.step = {
    description: 'One step: `- <block>: {settings}`, with an optional `name:` label.',
    anyOf: blocks.map((b) => ({
      type: 'object',
      title: b.def.type,
      description: b.def.summary,
      properties: { name: { type: 'string', description: 'Label shown in traces.' }, [b.def.type]: { $ref: `#/$defs/block.${b.def.type}` } },
      required: [b.def.type],
      additionalProperties: false,
    })),
  };
  defs.steps = { type: 'array', items: { $ref: '#/$defs/step' }, description: 'Blocks run top to bottom.' };

  const connectors = [...registry.connectors.values()].sort((a, b) => a.def.type.localeCompare(b.def.type));
  const sources = [...registry.sources.values()].sort((a, b) => a.def.type.localeCompare(b.def.type));
  const flowProps: Record<string, Schema> = {};
  for (const [name, s] of Object.entries(flowSpec)) flowProps[name] = settingSchema(s);
  flowProps.source = {
    description: 'Where the flow’s messages come from.',
    anyOf: sources.map((s) => typed(s.def)),
  };

  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'flow-studio/flow-definition.schema.json',
    title: 'Flow definition',
    description: 'Declared variables, connectors and flows of an integration.',
    type: 'object',
    additionalProperties: false,
    properties: {
      env: {
        type: 'object',
        description: 'Variables settings reference as ${NAME}.',
        additionalProperties: objectSchema(envEntrySpec),
      },
      connectors: {
        type: 'object',
        description: 'Named connectors the flows use.',
        additionalProperties: { anyOf: connectors.map((c) => typed(c.def)) },
      },
      flows: {
        type: 'object',
        description: 'Named flows.',
        additionalProperties: { type: 'object', properties: flowProps, additionalProperties: false },
      },
    },
    $defs: defs,
  };
}

function typed(def: ComponentDef): Schema {
  const schema = objectSchema(def.settings, def);
  const properties = { type: { const: def.type, description: def.summary }, ...(schema.properties as Schema) };
  return { ...schema, title: def.type, properties, required: ['type', ...((schema.required as string[]) ?? [])] };
}

function objectSchema(spec: SettingsSpec, def?: ComponentDef): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [name, s] of Object.entries(spec)) {
    properties[name] = settingSchema(s);
    if (s.required) required.push(name);
  }
  const out: Schema = { type: 'object', properties, additionalProperties: false };
  if (required.length) out.required = required;
  if (def) {
    out.description = def.summary;
    out.markdownDescription = `**${def.type}** — ${def.description ?? def.summary}`;
  }
  return out;
}

export function settingSchema(s: Setting): Schema {
  let schema: Schema;
  switch (s.type) {
    case 'string':
      schema = s.enum ? { type: 'string', enum: [...s.enum] } : { type: 'string' };
      break;
    case 'int':
      schema = { anyOf: [{ type: 'integer', minimum: s.minimum, maximum: s.maximum }, ENV_REFERENCE] };
      break;
    case 'number':
      schema = { anyOf: [{ type: 'number', minimum: s.minimum }, ENV_REFERENCE] };
      break;
    case 'boolean':
      schema = { anyOf: [{ type: 'boolean' }, ENV_REFERENCE] };
      break;
    case 'duration':
      schema = { anyOf: [DURATION, { const: 0 }, ENV_REFERENCE] };
      break;
    case 'cel':
      // A string is an expression; a YAML literal of any other kind stands for itself.
      schema = { type: ['string', 'number', 'boolean', 'object', 'array', 'null'] };
      break;
    case 'list':
      schema = { type: 'array', items: settingSchema(s.items) };
      break;
    case 'map':
      schema = { type: 'object', additionalProperties: settingSchema(s.values) };
      break;
    case 'object':
      schema = objectSchema(s.fields);
      break;
    case 'steps':
      schema = { $ref: '#/$defs/steps' };
      break;
    case 'any':
      schema = {};
      break;
  }
  // `doNotSuggest` (yaml-language-server) keeps a hidden setting out of completion while it still validates.
  return stripUndefined({ ...schema, description: s.description, markdownDescription: hoverText(s), default: s.default, examples: s.example === undefined ? undefined : [s.example], doNotSuggest: s.hidden ? true : undefined });
}

export function hoverText(s: Setting): string {
  const lines = [`${s.description}`, '', `*type* \`${typeLabel(s)}\`${s.required ? ' · **required**' : ''}`];
  if (s.default !== undefined) lines.push(`*default* \`${defaultLabel(s)}\``);
  if (s.example !== undefined) lines.push(`*example* \`${typeof s.example === 'string' ? s.example : JSON.stringify(s.example)}\``);
  return lines.join('\n\n');
}

export function typeLabel(s: Setting): string {
  switch (s.type) {
    case 'string':
      return s.enum ? s.enum.join(' \\| ') : s.connectorType ? `${s.connectorType} connector name` : 'string';
    case 'list':
      return `list of ${typeLabel(s.items)}`;
    case 'map':
      return `map of ${typeLabel(s.values)}`;
    case 'cel':
      return 'CEL';
    default:
      return s.type;
  }
}

export function defaultLabel(s: Setting): string {
  if (s.default === undefined) return '';
  if (s.type === 'duration' && typeof s.default === 'number') return formatDuration(s.default);
  return typeof s.default === 'string' ? s.default : JSON.stringify(s.default);
}

function stripUndefined(o: Schema): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined) continue;
    if (k === 'anyOf' && Array.isArray(v)) out[k] = v.map((x) => (typeof x === 'object' ? stripUndefined(x as Schema) : x));
    else out[k] = v;
  }
  return out;
}
