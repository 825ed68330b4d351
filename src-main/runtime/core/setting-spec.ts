/**
 * The vocabulary every component uses to declare its settings once. The same declaration drives
 * validation at load, the JSON Schema the editor uses, and docs/components.md.
 */

export type SettingType =
  | 'string'
  | 'int'
  | 'number'
  | 'boolean'
  | 'duration'
  | 'cel'
  | 'list'
  | 'map'
  | 'object'
  | 'steps'
  | 'any';

interface SettingBase {
  description: string;
  /** Absent and no default: the setting is required unless `optional` is set. */
  required?: boolean;
  default?: unknown;
  example?: unknown;
  /** Hidden from the editor's completion (still validated), e.g. test-only overrides. */
  hidden?: boolean;
  /**
   * The component applies `default` itself rather than the loader (docs and schema still show it):
   * for a default that only fills a gap another source left, e.g. an option a connection string
   * may already set. The setting then arrives undefined when it was not written.
   */
  defaultAppliedByComponent?: boolean;
}

export interface StringSetting extends SettingBase {
  type: 'string';
  enum?: readonly string[];
  /** The value names a connector of this type (checked at load). */
  connectorType?: string;
  /**
   * The component needs the connector only sometimes (sse-event: for a bare stream id only), so
   * several connectors of the type with none named is not a load error: the default stays and
   * the component fails at run time if it turns out to need a connector it cannot resolve.
   */
  connectorNeededAtRunOnly?: boolean;
  /** The value names another flow of the same definition (checked at load). */
  flowRef?: boolean;
}
export interface IntSetting extends SettingBase {
  type: 'int';
  minimum?: number;
  maximum?: number;
}
export interface NumberSetting extends SettingBase {
  type: 'number';
  minimum?: number;
}
export interface BooleanSetting extends SettingBase {
  type: 'boolean';
}
/** A duration string such as `5s`, `250ms`, `1m30s`; loaded as milliseconds. */
export interface DurationSetting extends SettingBase {
  type: 'duration';
}
/** A CEL expression compiled once at load. */
export interface CelSetting extends SettingBase {
  type: 'cel';
}
export interface ListSetting extends SettingBase {
  type: 'list';
  items: Setting;
}
export interface MapSetting extends SettingBase {
  type: 'map';
  values: Setting;
}
export interface ObjectSetting extends SettingBase {
  type: 'object';
  fields: Record<string, Setting>;
}
export interface AnySetting extends SettingBase {
  type: 'any';
}
/** A nested chain of steps (switch cases, error chains, lock bodies); loaded as a runnable chain. */
export interface StepsSetting extends SettingBase {
  type: 'steps';
}

export type Setting =
  | StringSetting
  | IntSetting
  | NumberSetting
  | BooleanSetting
  | DurationSetting
  | CelSetting
  | ListSetting
  | MapSetting
  | ObjectSetting
  | StepsSetting
  | AnySetting;

export type SettingsSpec = Record<string, Setting>;

/** A setting is required when it says so; a default never makes it required. */
export function isRequired(setting: Setting): boolean {
  return setting.required === true;
}
