import type { AnalysisRequest } from './analysis-protocol.ts';
import { DefinitionAnalysis } from './definition-analysis.ts';

// The analysis of definition files (outline, cursor context, snippets) off the UI thread.
const analysis = new DefinitionAnalysis();
self.onmessage = (e: MessageEvent<AnalysisRequest>) => {
  self.postMessage(analysis.handle(e.data));
};
