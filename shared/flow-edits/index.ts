/**
 * Graph edits of a flow definition as minimal edits of its YAML: the `yaml` Document finds the
 * nodes, each edit replaces only their lines, so comments, blank lines, key order, quoting and
 * inline/block style of everything else stay as the user wrote them. Each edit returns the new
 * text, the replacements (for the editor's undo history), the step to select and where every
 * step went (for run counts, coverage and breakpoints).
 */
export { chainFollows, FlowEditError, keysOf, placeOf, stepPathOf, within, type DocKey, type PathFollow, type StepPlace } from './step-place.ts';
export { applyTextEdits, type FlowEditResult, type TextEdit } from './edit-result.ts';
export { deleteStep, duplicateStep, insertStep, moveStep, type NewStep } from './step-edits.ts';
export { addCase, removeCase, unwrapStep, wrapSteps, type Wrapper } from './wrap-edits.ts';
export { addConnector, addFlow, setDefinitionValue, setStepSetting } from './definition-edits.ts';
export { parsedDefinition } from './definition-document.ts';
