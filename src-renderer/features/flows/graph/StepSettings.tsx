import { lazy, memo, Suspense, useMemo, useState } from 'react';
import { isMap } from 'yaml';
import type { CelSample, DesignComponent, DesignSetting } from '../../../../shared/flow-design.ts';
import { keysOf, parsedDefinition, setDefinitionValue, setStepSetting, type DocKey } from '../../../../shared/flow-edits/index.ts';
import { useWhenIdle } from '../../../components/use-when-idle.ts';
import { fileKey } from '../../../store/flows-slice.ts';
import { useStudio } from '../../../store/studio-store.ts';
import { celScope, type CelScope } from '../analysis/cel-scope.ts';
import type { DefinitionOutline, OutlineFlow } from '../analysis/outline-types.ts';
import { indexReference } from '../analysis/spec-index.ts';
import { editorCommands } from '../editor-commands.ts';
import { useCelEvaluation } from '../playground/cel-evaluation.ts';
import { SAMPLE_ORIGIN, sampleFor, tracedInputs } from '../playground/sample-message.ts';
import { flowSteps } from './graph-actions.ts';
import { editOnGraph } from './graph-edit.ts';
import { celPreview, fieldKind, fieldText, parseField, type FieldKind } from './setting-fields.ts';

// Monaco loads with the editor beside the graph; a CEL field waits for it.
const CelFieldEditor = lazy(() => import('../editor/CelFieldEditor.tsx'));

interface FormTarget {
  /** Heading, e.g. `rest (load customer)`. */
  title: string;
  component: DesignComponent;
  /** Where the settings are in the document, e.g. `['flows', 'f', 'steps', 0, 'rest']`. */
  keys: DocKey[];
  /** The setting path the loader's problems name, e.g. `flows.f.steps[0].rest`. */
  problemPath: string;
  write(setting: string, value: unknown): boolean;
  /** A step can be named; a source or connector cannot. */
  step?: string;
  /** The step whose incoming message the CEL settings read (a case's `when`: its switch's); none for a source. */
  at?: string;
}

/** What the CEL fields of a form can read, and the message their preview runs on. */
interface CelFieldScope {
  scope?: CelScope;
  sample: CelSample;
  /** Where the sample came from; a made-up one is completed from, never previewed on. */
  origin: keyof typeof SAMPLE_ORIGIN;
}

/** What the form is drawn from: it follows these when the page is idle. */
interface FormInputs {
  selected: string | undefined;
  version: number | undefined;
  flow: OutlineFlow;
  outline: DefinitionOutline;
}

const sameInputs = (a: FormInputs, b: FormInputs): boolean => a.selected === b.selected && a.version === b.version && a.flow === b.flow && a.outline === b.outline;

/**
 * A form for the selected node, generated from its component's spec: typed fields, enums and
 * connectors as pickers, durations checked, required settings marked, and what is wrong shown as
 * it is typed (the field's own check, CEL compile errors, then the loader's problems). Each change
 * is a graph edit of that one setting. A connector a field names gets its own form below.
 *
 * The form reads the whole file and draws CEL fields as editors of their own: it follows a drop
 * or a click once the page is idle, so the graph and the text show the edit first. The file it
 * parses is the one the next graph edit starts from (parsedDefinition keeps it).
 */
export function StepSettings(props: { flow: OutlineFlow; outline: DefinitionOutline }) {
  const selected = useStudio((s) => s.graphSelection.at(-1));
  const version = useStudio((s) => s.outline?.version);
  return <SettingsForm {...useWhenIdle<FormInputs>({ selected, version, ...props }, sameInputs)} />;
}

/** The form as of its inputs: drawn again only when they (or what it reads of the store) change, not while they wait. */
const SettingsForm = memo(function SettingsForm({ selected, version, flow, outline }: FormInputs) {
  const reference = useStudio((s) => s.designReference);
  const openFile = useStudio((s) => s.openFile);
  const problems = useStudio((s) => (openFile ? s.designProblems[openFile.integration] : undefined));
  const target = useMemo(() => (reference && selected ? targetOf(selected, flow, reference.components) : undefined), [selected, flow, reference]);
  const specs = useMemo(() => (reference ? indexReference(reference) : undefined), [reference]);
  const integration = openFile?.integration ?? '';
  // Selected one by one so traces of other steps do not redraw the form.
  const atStep = useStudio((s) => tracedInputs(s.runStats, integration, flow.name, target?.at).atStep);
  const atFlow = useStudio((s) => tracedInputs(s.runStats, integration, flow.name, target?.at).atFlow);
  const values = useMemo(() => {
    void version;
    const text = openFile ? editorCommands()?.text(fileKey(openFile)) : undefined;
    if (!text || !target) return undefined;
    const doc = parsedDefinition(text);
    const name = target.step ? (doc.getIn([...keysOf(target.step), 'name']) as unknown) : undefined;
    // The file's connectors, read here: an outline made flow by flow leaves them out.
    const connectors = Object.entries(plainMap(doc.getIn(['connectors']))).map(([n, c]) => ({ name: n, type: String((c as { type?: unknown } | null)?.type ?? ''), span: [0, 0] as [number, number] }));
    const scope = specs && Object.values(target.component.settings).some((s) => s.type === 'cel') ? celScope(doc, specs, flow.name, target.at) : undefined;
    return { settings: plainMap(doc.getIn(target.keys)), name, outline: { ...outline, connectors }, scope };
  }, [openFile, target, version, outline, specs, flow.name]);
  const cel = useMemo((): CelFieldScope | undefined => {
    if (!values?.scope) return undefined;
    const { sample, origin } = sampleFor({ atStep, atFlow }, target?.at, values.scope);
    return { scope: values.scope, sample, origin };
  }, [values, atStep, atFlow, target?.at]);
  if (!target || !values) return null;
  const fileProblems = (problems ?? []).filter((p) => p.file === openFile?.file);
  const connectorForms = Object.entries(target.component.settings)
    .filter(([name, s]) => s.connectorType && typeof values.settings[name] === 'string')
    .map(([name]) => values.settings[name] as string);
  return (
    <section className="step-settings" aria-label={`Settings of ${target.title}`}>
      <h3>{target.title}</h3>
      <p className="muted step-settings-summary">{target.component.summary}</p>
      {target.step ? (
        <Field
          key={`${target.step}|name|${fieldText(values.name)}`}
          name="name"
          setting={{ type: 'string', description: 'A name for the step, shown on the graph and in traces.' }}
          kind="text"
          value={values.name}
          outline={values.outline}
          problem={undefined}
          onCommit={(v) => editOnGraph((t) => setStepSetting(t, target.step!, ['name'], v))}
        />
      ) : null}
      {Object.entries(target.component.settings).map(([name, s]) => {
        const kind = fieldKind(s);
        if (!kind) return null;
        const problem = fileProblems.find((p) => p.path === `${target.problemPath}.${name}`)?.message;
        return (
          <Field
            key={`${target.problemPath}|${name}|${fieldText(values.settings[name])}`}
            name={name}
            setting={s}
            kind={kind}
            value={values.settings[name]}
            outline={values.outline}
            problem={problem}
            cel={cel}
            onCommit={(v) => target.write(name, v)}
          />
        );
      })}
      {Object.entries(target.component.settings).some(([, s]) => !fieldKind(s) && !s.hidden) ? <p className="muted">Lists, maps and steps of this block are edited in the text.</p> : null}
      {connectorForms.map((name) => {
        const c = values.outline.connectors.find((x) => x.name === name);
        const spec = reference?.components.find((x) => x.kind === 'connector' && x.type === c?.type);
        return c && spec ? <ConnectorSettings key={name} name={name} component={spec} outline={values.outline} version={version} problems={fileProblems} /> : null;
      })}
    </section>
  );
});

function ConnectorSettings({
  name,
  component,
  outline,
  version,
  problems,
}: {
  name: string;
  component: DesignComponent;
  outline: DefinitionOutline;
  /** The file's version the form follows (when idle, as the step's form). */
  version: number | undefined;
  problems: Array<{ path: string; message: string }>;
}) {
  const openFile = useStudio((s) => s.openFile);
  const values = useMemo(() => {
    void version;
    const text = openFile ? editorCommands()?.text(fileKey(openFile)) : undefined;
    return plainMap(text ? parsedDefinition(text).getIn(['connectors', name]) : undefined);
  }, [openFile, name, version]);
  return (
    <section className="connector-settings" aria-label={`Settings of connector ${name}`}>
      <h4>
        connector {name} <span className="muted">({component.type})</span>
      </h4>
      {Object.entries(component.settings).map(([setting, s]) => {
        const kind = fieldKind(s);
        if (!kind) return null;
        return (
          <Field
            key={`${name}|${setting}|${fieldText(values[setting])}`}
            name={setting}
            setting={s}
            kind={kind}
            value={values[setting]}
            outline={outline}
            problem={problems.find((p) => p.path === `connectors.${name}.${setting}`)?.message}
            onCommit={(v) => editOnGraph((t) => setDefinitionValue(t, ['connectors', name, setting], v))}
          />
        );
      })}
    </section>
  );
}

/** What a CEL field without a real message is checked on: its compile errors show, nothing is previewed. */
const NO_CEL_SAMPLE: CelSample = { body: null, vars: {} };

/** A map node of the document as plain values (nothing else counts as settings). */
function plainMap(node: unknown): Record<string, unknown> {
  return isMap(node) ? (node.toJSON() as Record<string, unknown>) : {};
}

function Field({
  name,
  setting,
  kind,
  value,
  outline,
  problem,
  cel,
  onCommit,
}: {
  name: string;
  setting: DesignSetting;
  kind: FieldKind;
  value: unknown;
  outline: DefinitionOutline;
  problem: string | undefined;
  /** For CEL fields of a flow's form: the scope completion reads and the message the preview runs on. */
  cel?: CelFieldScope;
  onCommit(value: unknown): unknown;
}) {
  const [text, setText] = useState(fieldText(value));
  const parsed = parseField(kind, setting, text);
  const ownError = 'error' in parsed ? parsed.error : undefined;
  // Compile errors as it is typed, and the value on the last real message; evaluation errors on
  // a made-up message are not the field's.
  const real = cel && cel.origin !== 'made-up' ? cel.sample : undefined;
  const evaluation = useCelEvaluation(kind === 'cel' ? text : '', real ?? NO_CEL_SAMPLE, 250);
  const celError = evaluation && !evaluation.ok && evaluation.stage === 'compile' ? evaluation.error : undefined;
  const preview = real ? celPreview(evaluation) : undefined;
  const commit = (next: string): void => {
    const p = parseField(kind, setting, next);
    if ('error' in p) return;
    if (fieldText(p.value) === fieldText(value) && (p.value === undefined) === (value === undefined)) return;
    onCommit(p.value);
  };
  const id = `setting-${name}`;
  const error = ownError ?? celError ?? problem;
  const label = (
    <label htmlFor={id} title={setting.description}>
      {name}
      {setting.required ? (
        <span className="required" aria-label="required">
          {' '}
          *
        </span>
      ) : null}
    </label>
  );
  const pick = (options: string[], empty: string) => (
    <select
      id={id}
      aria-label={name}
      value={text}
      aria-invalid={error !== undefined}
      onChange={(e) => {
        setText(e.target.value);
        commit(e.target.value);
      }}
    >
      <option value="">{empty}</option>
      {text && !options.includes(text) ? <option value={text}>{text}</option> : null}
      {options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </select>
  );
  let control;
  const placeholder = setting.default !== undefined ? fieldText(setting.default) : setting.example !== undefined ? `e.g. ${fieldText(setting.example)}` : '';
  const dflt = setting.default !== undefined ? `default: ${fieldText(setting.default)}` : setting.required ? 'pick one' : 'not set';
  if (kind === 'enum') control = pick([...(setting.enum ?? [])], dflt);
  else if (kind === 'boolean') control = pick(['true', 'false'], dflt);
  else if (kind === 'connector') control = pick(outline.connectors.filter((c) => c.type === setting.connectorType).map((c) => c.name), `no ${setting.connectorType} connector picked`);
  else if (kind === 'flow') control = pick(outline.flows.map((f) => f.name), 'pick a flow');
  else if (kind === 'cel') {
    control = (
      <Suspense fallback={<div className="cel-field muted">…</div>}>
        <CelFieldEditor
          id={id}
          label={name}
          initial={fieldText(value)}
          invalid={error !== undefined}
          describedBy={error ? `${id}-error` : undefined}
          placeholder={placeholder}
          context={{ scope: cel?.scope, sample: cel?.sample }}
          onChange={setText}
          onCommit={commit}
        />
      </Suspense>
    );
  } else {
    control = (
      <input
        id={id}
        aria-label={name}
        type={kind === 'number' ? 'number' : 'text'}
        value={text}
        placeholder={placeholder}
        aria-invalid={error !== undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => commit(text)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(text);
          if (e.key === 'Escape') setText(fieldText(value));
        }}
      />
    );
  }
  return (
    <div className={`setting-field kind-${kind}`}>
      {label}
      {control}
      {error ? (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      ) : null}
      {preview && !error ? (
        <output className={`cel-preview${preview.failed ? ' failed' : ''}`} aria-label={`${name} on the last message`} title={`On ${SAMPLE_ORIGIN[cel!.origin]}`}>
          {preview.text}
        </output>
      ) : null}
    </div>
  );
}

/** What the form edits for a selection: a step's block settings, or a flow's source. */
function targetOf(selected: string, flow: OutlineFlow, components: readonly DesignComponent[]): FormTarget | undefined {
  if (selected === `flows.${flow.name}.source`) {
    const component = components.find((c) => c.kind === 'source' && c.type === flow.source?.type);
    if (!component) return undefined;
    const keys: DocKey[] = ['flows', flow.name, 'source'];
    return {
      title: `source ${component.type} of ${flow.name}`,
      component,
      keys,
      problemPath: `flows.${flow.name}.source`,
      write: (setting, value) => editOnGraph((t) => setDefinitionValue(t, [...keys, setting], value)),
    };
  }
  const caseOf = /^(.*)\.switch\.cases\[(\d+)\]$/.exec(selected);
  if (caseOf) {
    const fields = components.find((c) => c.kind === 'block' && c.type === 'switch')?.settings.cases?.items?.fields;
    if (!fields) return undefined;
    const keys = keysOf(selected);
    const settings = Object.fromEntries(Object.entries(fields).filter(([, f]) => f.type !== 'steps'));
    return {
      title: `case ${Number(caseOf[2]) + 1} of the switch`,
      component: { kind: 'block', type: 'case', summary: 'Its steps run when `when` is the first true condition of the switch.', settings },
      keys,
      problemPath: selected,
      at: caseOf[1],
      write: (setting, value) => editOnGraph((t) => setDefinitionValue(t, [...keys, setting], value)),
    };
  }
  const step = flowSteps(flow).find((s) => s.path === selected);
  const component = step && components.find((c) => c.kind === 'block' && c.type === step.block);
  if (!step || !component) return undefined;
  return {
    title: step.name ? `${step.block} (${step.name})` : step.block,
    component,
    keys: [...keysOf(step.path), step.block],
    problemPath: `${step.path}.${step.block}`,
    step: step.path,
    at: step.path,
    write: (setting, value) => editOnGraph((t) => setStepSetting(t, step.path, [setting], value)),
  };
}
