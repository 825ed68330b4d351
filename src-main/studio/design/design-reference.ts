import type { DesignComponent, DesignReference, DesignSettings } from '../../../shared/flow-design.ts';
import { type ComponentDef, type ComponentRegistry, definitionSchema, envEntrySpec, flowSpec, type SettingsSpec } from '../../runtime/index.ts';
import { celCatalog } from './cel-catalog.ts';
import { editorSchema } from './editor-schema.ts';

/** Specs are plain data already; a JSON copy drops the readonly types and anything not data. */
function settings(spec: SettingsSpec): DesignSettings {
  return JSON.parse(JSON.stringify(spec)) as DesignSettings;
}

function component(def: ComponentDef): DesignComponent {
  return {
    kind: def.kind,
    type: def.type,
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    ...(def.example ? { example: def.example } : {}),
    ...(def.kind === 'source' && def.connectorType ? { connectorType: def.connectorType } : {}),
    ...(def.kind === 'source' ? { onFailure: def.onFailure } : {}),
    settings: settings(def.settings),
  };
}

const byType = (a: DesignComponent, b: DesignComponent): number => a.type.localeCompare(b.type);

/**
 * What the editor and the palette know about components, built from the registry the loader
 * uses: the JSON Schema (generated as `flow-studio gen` writes it, with every connector and
 * source type listed for completion), each component's
 * settings and reference text, and the CEL functions.
 */
export function designReference(registry: ComponentRegistry): DesignReference {
  return {
    schema: editorSchema(definitionSchema(registry)),
    components: [
      ...[...registry.connectors.values()].map((c) => component(c.def)).sort(byType),
      ...[...registry.sources.values()].map((s) => component(s.def)).sort(byType),
      ...[...registry.blocks.values()].map((b) => component(b.def)).sort(byType),
    ],
    flowSettings: settings(flowSpec),
    envSettings: settings(envEntrySpec),
    celFunctions: celCatalog(registry.celFunctions),
  };
}
