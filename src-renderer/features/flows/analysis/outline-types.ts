import type { Span } from './yaml-nodes.ts';

export type { Span } from './yaml-nodes.ts';

/** One step of a flow as the graph draws it; `path` is the runtime's setting path. */
export interface OutlineStep {
  /** e.g. `flows.orders.steps[2]` or `flows.orders.steps[0].switch.cases[1].steps[0]`. */
  path: string;
  block: string;
  name?: string;
  /** A short reading of its main setting, e.g. the condition of a filter. */
  detail?: string;
  span: Span;
  /** Nested chains: switch cases and default, a lock's steps. */
  branches: OutlineBranch[];
  /** The flow a flow-ref step calls. */
  flowRef?: string;
}

export interface OutlineBranch {
  kind: 'case' | 'default' | 'steps';
  label: string;
  /** Path of the chain, e.g. `flows.f.steps[0].switch.cases[1].steps`; its steps are `<path>[i]`. */
  path: string;
  steps: OutlineStep[];
  span?: Span;
}

export interface OutlineSource {
  type: string;
  detail: string;
  span: Span;
}

export interface OutlineFlow {
  name: string;
  /**
   * Only the name and spans were read (a long file is outlined one flow at a time, the one the
   * graph shows); steps and source are empty until this flow is asked for.
   */
  brief?: boolean;
  span: Span;
  keySpan: Span;
  source?: OutlineSource;
  steps: OutlineStep[];
  onError: OutlineStep[];
}

export interface OutlineConnector {
  name: string;
  type: string;
  span: Span;
}

/** What a definition file declares, with where each part is. */
export interface DefinitionOutline {
  flows: OutlineFlow[];
  /** Empty when the file was outlined flow by flow. */
  connectors: OutlineConnector[];
}
