import type { Document } from 'yaml';
import type { AnalysisRequest, AnalysisResponse, ContextResult, DocumentVersion, TextChange } from './analysis-protocol.ts';
import { snippetInsertion } from './block-snippet.ts';
import { celScope } from './cel-scope.ts';
import { cursorContext } from './cursor-context.ts';
import { definitionOutline } from './definition-outline.ts';
import { flowRegionAt, flowRegions, type FlowRegion } from './flow-region.ts';
import type { DefinitionOutline, OutlineFlow } from './outline-types.ts';
import { indexReference, type SpecIndex } from './spec-index.ts';
import { shiftFlow, StepwiseOutline } from './stepwise-outline.ts';
import { parseDefinition } from './yaml-nodes.ts';

interface Parsed {
  version: number;
  text: string;
  doc?: Document.Parsed;
}

/**
 * Answers analysis requests: keeps the latest text of each document and parses it once per
 * version. Runs in a worker so a long definition never stalls typing; tests call it directly.
 */
export class DefinitionAnalysis {
  private specs: SpecIndex = indexReference({ components: [], flowSettings: {}, envSettings: {} });
  private stepwise = new StepwiseOutline(this.specs);
  private readonly docs = new Map<string, Parsed>();

  handle(req: AnalysisRequest): AnalysisResponse {
    try {
      switch (req.op) {
        case 'reference':
          this.specs = indexReference(req.reference);
          this.stepwise = new StepwiseOutline(this.specs);
          return { id: req.id, ok: true, value: null };
        case 'forget':
          this.docs.delete(req.key);
          return { id: req.id, ok: true, value: null };
        case 'edit': {
          const p = this.docs.get(req.key);
          // Edits apply only on top of the version they follow; otherwise the next request resends.
          if (!p || p.version !== req.version - 1) this.docs.delete(req.key);
          else this.docs.set(req.key, { version: req.version, text: applyChanges(p.text, req.changes) });
          return { id: req.id, ok: true, value: null };
        }
        case 'outline': {
          const p = this.text(req.doc);
          return p ? { id: req.id, ok: true, value: this.outlineOf(p, req.focus) } : stale(req.id);
        }
        case 'context': {
          const p = this.text(req.doc);
          if (!p) return stale(req.id);
          return { id: req.id, ok: true, value: this.contextAt(p, req.offset) };
        }
        case 'snippet': {
          const p = this.parsed(req.doc);
          return p ? { id: req.id, ok: true, value: snippetInsertion(p.doc!, p.text, this.specs, req.offset, req.component) } : stale(req.id);
        }
      }
    } catch (err) {
      return { id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }

  /**
   * The outline, read flow by flow when the layout allows: the focused flow in full, the others
   * by name only, so a long file costs a few dozen lines per keystroke pause, not thousands.
   */
  private outlineOf(p: Parsed, focus: string | undefined): DefinitionOutline {
    const regions = p.doc ? undefined : flowRegions(p.text);
    if (!regions) return definitionOutline((p.doc ??= parseDefinition(p.text)), p.text, this.specs);
    const chosen = regions.find((r) => r.name === focus) ?? regions[0];
    const flows = regions.map((r): OutlineFlow => {
      if (r === chosen) return this.flowOutline(p.text, r) ?? briefFlow(r);
      return briefFlow(r);
    });
    return { flows, connectors: [] };
  }

  /** The flow read step by step, keeping the steps whose lines did not change; else its lines read whole. */
  private flowOutline(text: string, r: FlowRegion): OutlineFlow | undefined {
    const stepwise = this.stepwise.flow(text, r);
    if (stepwise) return stepwise;
    const head = 'flows:\n';
    const slice = head + text.slice(r.start, r.end);
    const flow = definitionOutline(parseDefinition(slice), slice, this.specs).flows[0];
    return flow ? shiftFlow(flow, r.start - head.length) : undefined;
  }

  /**
   * The context at the cursor. Completion asks on every keystroke, so inside a flow only that
   * flow's lines are parsed (a few dozen, not thousands); elsewhere the whole file is.
   */
  private contextAt(p: Parsed, offset: number): ContextResult {
    const region = p.doc ? undefined : flowRegionAt(p.text, offset);
    if (!region) {
      const doc = (p.doc ??= parseDefinition(p.text));
      const context = cursorContext(doc, p.text, this.specs, offset);
      return { context, scope: context.flow ? celScope(doc, this.specs, context.flow, context.stepPath) : undefined };
    }
    const head = 'flows:\n';
    const text = head + p.text.slice(region.start, region.end);
    const shift = region.start - head.length;
    const doc = parseDefinition(text);
    const context = cursorContext(doc, text, this.specs, offset - shift);
    const move = (span: [number, number] | undefined): [number, number] | undefined => (span ? [span[0] + shift, span[1] + shift] : undefined);
    if (context.cel) context.cel = { ...context.cel, span: move(context.cel.span)! };
    if (context.chain) context.chain = { ...context.chain, span: move(context.chain.span) };
    return { context, scope: context.flow ? celScope(doc, this.specs, context.flow, context.stepPath) : undefined };
  }

  private text(d: DocumentVersion): Parsed | undefined {
    let p = this.docs.get(d.key);
    if (d.text !== undefined && (!p || p.version !== d.version)) {
      p = { version: d.version, text: d.text };
      this.docs.set(d.key, p);
    }
    return p && p.version === d.version ? p : undefined;
  }

  private parsed(d: DocumentVersion): Parsed | undefined {
    const p = this.text(d);
    if (p) p.doc ??= parseDefinition(p.text);
    return p;
  }
}

function briefFlow(r: FlowRegion): OutlineFlow {
  return { name: r.name, brief: true, span: [r.start, r.end], keySpan: [r.keyStart, r.keyStart + r.name.length], steps: [], onError: [] };
}

function applyChanges(text: string, changes: readonly TextChange[]): string {
  let out = text;
  for (const c of changes) out = out.slice(0, c.offset) + c.text + out.slice(c.offset + c.length);
  return out;
}

function stale(id: number): AnalysisResponse {
  return { id, ok: false, error: 'the analysis has another version of this document', stale: true };
}
