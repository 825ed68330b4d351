import type { DesignComponent, DesignReference, DesignSetting, DesignSettings } from '../../../../shared/flow-design.ts';

/** The part of the design reference the analysis needs (no schema, no CEL functions). */
export type AnalysisReference = Pick<DesignReference, 'components' | 'flowSettings' | 'envSettings'>;

/** Components by kind and type, for looking up the spec of whatever the cursor is in. */
export interface SpecIndex {
  blocks: ReadonlyMap<string, DesignComponent>;
  sources: ReadonlyMap<string, DesignComponent>;
  connectors: ReadonlyMap<string, DesignComponent>;
  flowSettings: DesignSettings;
  envSettings: DesignSettings;
}

export function indexReference(ref: AnalysisReference): SpecIndex {
  const of = (kind: DesignComponent['kind']) => new Map(ref.components.filter((c) => c.kind === kind).map((c) => [c.type, c]));
  return { blocks: of('block'), sources: of('source'), connectors: of('connector'), flowSettings: ref.flowSettings, envSettings: ref.envSettings };
}

/** A list of objects one of whose fields is a chain, like switch `cases`: the name of that field. */
export function chainFieldOf(setting: DesignSetting): string | undefined {
  if (setting.type !== 'list' || setting.items?.type !== 'object' || !setting.items.fields) return undefined;
  return Object.entries(setting.items.fields).find(([, f]) => f.type === 'steps')?.[0];
}
