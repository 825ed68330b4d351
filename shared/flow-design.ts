/**
 * What the Flows panel gets from the backend to design flows: the component reference (the same
 * specs that validate a definition), CEL evaluation for the playground, and file edits. Plain
 * data only: it crosses IPC and HTTP as JSON.
 */

export type DesignSettingType = 'string' | 'int' | 'number' | 'boolean' | 'duration' | 'cel' | 'list' | 'map' | 'object' | 'steps' | 'any';

/** One setting of a component spec, as declared (see src-main/runtime/core/setting-spec.ts). */
export interface DesignSetting {
  type: DesignSettingType;
  description: string;
  required?: boolean;
  default?: unknown;
  example?: unknown;
  /** Validated but kept out of completion and the palette's snippets. */
  hidden?: boolean;
  enum?: readonly string[];
  /** The value names a connector of this type. */
  connectorType?: string;
  /** The value names another flow of the definition. */
  flowRef?: boolean;
  minimum?: number;
  maximum?: number;
  items?: DesignSetting;
  values?: DesignSetting;
  fields?: Record<string, DesignSetting>;
}

export type DesignSettings = Record<string, DesignSetting>;

/** A connector, source or block as the palette and the editor's assistance show it. */
export interface DesignComponent {
  kind: 'connector' | 'source' | 'block';
  type: string;
  summary: string;
  /** Longer Markdown reference text. */
  description?: string;
  /** A YAML snippet from the spec, for reading. */
  example?: string;
  /** For a source: the connector type it attaches to. */
  connectorType?: string;
  /** For a source: what becomes of the message when its run fails unhandled. */
  onFailure?: string;
  settings: DesignSettings;
}

/** A CEL function or macro the editor completes, with its signature for people. */
export interface DesignCelFunction {
  name: string;
  /** e.g. `size(list): int`, or `string.startsWith(string): bool` for a method. */
  signature: string;
  description: string;
  /** A `method` is called on a value: `"a".startsWith("b")`, `body.items.map(i, i.price)`. */
  kind: 'function' | 'method';
  /** For a method: what it is called on (`string`, `list`, `map`, `timestamp`, …). */
  receiver?: string;
  /** True for the functions this product adds (secret, templateResource, …). */
  ours?: boolean;
  /** An expression using it and its value, e.g. `math.greatest(1, 2.5) → 2.5`. */
  example?: string;
  /** The extension library it belongs to (shared/cel-functions.ts); absent for the CEL standard library. */
  library?: string;
}

export interface DesignReference {
  /** The JSON Schema of a definition file, generated from the specs. */
  schema: Record<string, unknown>;
  components: DesignComponent[];
  /** Settings of a flow (`workers`, `steps`, `onError`, …) and of a declared variable. */
  flowSettings: DesignSettings;
  envSettings: DesignSettings;
  celFunctions: DesignCelFunction[];
}

/** An unsaved buffer validated in place of the file on disk. */
export interface DefinitionEdit {
  file: string;
  text: string;
}

/** The message a CEL expression is evaluated against in the playground. */
export interface CelSample {
  body: unknown;
  vars: Record<string, unknown>;
  correlationID?: string;
  /** In an error chain: the failure, `{message, step, status}`. */
  error?: { message: string; step?: string } | null;
}

export type CelEvaluation =
  | { ok: true; value: unknown; type: string }
  /** `offset` is the 0-based character of the expression a compile error points at. */
  | { ok: false; error: string; stage: 'compile' | 'evaluate'; offset?: number };
