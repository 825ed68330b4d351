import type { DesignReference } from '../../../../shared/flow-design.ts';
import { DefinitionAnalysis } from '../analysis/definition-analysis.ts';
import type { DefinitionOutline } from '../analysis/outline-types.ts';

/**
 * The outline of the text a graph edit just made, read here rather than in the analysis worker:
 * the graph redraws in the same task as the edit (a round trip to the worker cost more than the
 * edit itself on a 200-step flow). Only the shown flow is read in full, as the worker does, and
 * step by step: the steps this reading kept from the last edit's are not read again
 * (stepwise-outline.ts), so a drop on a 200-step flow reads the moved step, not the flow.
 */
let analysis: DefinitionAnalysis | undefined;
let indexed: DesignReference | undefined;
let request = 0;
/** The outline a graph edit read last: the worker's answer for the same version and flow is not needed. */
let lastRead: { key: string; version: number; focus: string | undefined } | undefined;

export function readByGraph(key: string, version: number, focus: string | undefined): boolean {
  return lastRead !== undefined && lastRead.key === key && lastRead.version === version && lastRead.focus === focus;
}

export function outlineNow(reference: DesignReference, key: string, version: number, text: string, focus: string | undefined): DefinitionOutline | undefined {
  if (!analysis || indexed !== reference) {
    analysis = new DefinitionAnalysis();
    analysis.handle({ id: ++request, op: 'reference', reference: { components: reference.components, flowSettings: reference.flowSettings, envSettings: reference.envSettings } });
    indexed = reference;
  }
  const answer = analysis.handle({ id: ++request, op: 'outline', doc: { key, version, text }, focus });
  // Only the latest text is kept: the next edit brings its own.
  analysis.handle({ id: ++request, op: 'forget', key });
  if (!answer.ok) return undefined;
  lastRead = { key, version, focus };
  return answer.value as DefinitionOutline;
}
