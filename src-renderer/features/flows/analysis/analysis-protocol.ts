import type { DesignComponent } from '../../../../shared/flow-design.ts';
import type { SnippetResult } from './block-snippet.ts';
import type { CelScope } from './cel-scope.ts';
import type { CursorContext } from './cursor-context.ts';
import type { DefinitionOutline } from './outline-types.ts';
import type { AnalysisReference } from './spec-index.ts';

/**
 * Messages to and from the analysis worker. A document is named by key and version; its text
 * travels only when the worker does not have that version yet.
 */
export interface DocumentVersion {
  key: string;
  version: number;
  text?: string;
}

export type AnalysisRequest =
  | { id: number; op: 'reference'; reference: AnalysisReference }
  /** `focus` names the flow to read in full; the others may come back brief. */
  | { id: number; op: 'outline'; doc: DocumentVersion; focus?: string }
  | { id: number; op: 'context'; doc: DocumentVersion; offset: number }
  | { id: number; op: 'snippet'; doc: DocumentVersion; offset: number; component: DesignComponent }
  | { id: number; op: 'forget'; key: string }
  /** The editor's changes of one edit, end of the document first, bringing it to `version`. */
  | { id: number; op: 'edit'; key: string; version: number; changes: TextChange[] };

export interface TextChange {
  offset: number;
  length: number;
  text: string;
}

export interface ContextResult {
  context: CursorContext;
  /** Variables known at the cursor, when it is in a flow. */
  scope?: CelScope;
}

export interface AnalysisResults {
  reference: null;
  outline: DefinitionOutline;
  context: ContextResult;
  snippet: SnippetResult;
  forget: null;
  edit: null;
}

export type AnalysisResponse = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string; stale?: boolean };
