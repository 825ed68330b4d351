import { useState } from 'react';
import type { StudioBreakpoint } from '../../../shared/debugger-types.ts';
import { useStudio } from '../../store/studio-store.ts';
import { openFileAt } from '../flows/editor-commands.ts';
import { removeBreakpoint, updateBreakpoint } from './debugger-actions.ts';

/** The workspace's breakpoints: where each is, whether it works, and its condition, hit count and log message. */
export function BreakpointList() {
  const breakpoints = useStudio((s) => s.breakpoints);
  if (breakpoints.length === 0) return <p className="muted debug-none">No breakpoints. Click left of a step’s line number in the YAML editor.</p>;
  return (
    <ul className="debug-breakpoints" aria-label="Breakpoints">
      {breakpoints.map((b) => (
        <BreakpointRow key={b.id} bp={b} />
      ))}
    </ul>
  );
}

function BreakpointRow({ bp }: { bp: StudioBreakpoint }) {
  return (
    <li className={`debug-bp${bp.verified ? '' : ' unverified'}`} data-breakpoint={bp.id} data-condition={bp.condition ?? ''}>
      <div className="debug-bp-head">
        <input type="checkbox" checked={bp.enabled} aria-label={`Enabled: ${bp.file}:${bp.line}`} onChange={(e) => void updateBreakpoint(bp, { enabled: e.currentTarget.checked })} />
        <span className={`debug-bp-glyph${bp.logMessage ? ' log' : ''}`} aria-hidden="true" />
        <button type="button" className="link" onClick={() => showInEditor(bp)} title={bp.step}>
          {bp.integration}/{bp.file}:{bp.line}
        </button>
        <span className="muted debug-bp-step">{bp.step ?? 'no step'}</span>
        <button type="button" className="icon" aria-label={`Remove breakpoint ${bp.file}:${bp.line}`} onClick={() => void removeBreakpoint(bp)}>
          ×
        </button>
      </div>
      {bp.message ? <div className="error debug-bp-problem">{bp.message}</div> : null}
      <Field bp={bp} name="condition" label="Condition (CEL)" placeholder='body.customer == "bob"' />
      <Field bp={bp} name="hitCondition" label="Hit count" placeholder="3, >= 3 or %2" />
      <Field bp={bp} name="logMessage" label="Log message" placeholder="qty={body.qty} (logs, does not pause)" />
    </li>
  );
}

function Field({ bp, name, label, placeholder }: { bp: StudioBreakpoint; name: 'condition' | 'hitCondition' | 'logMessage'; label: string; placeholder: string }) {
  const saved = bp[name] ?? '';
  const [text, setText] = useState(saved);
  const [was, setWas] = useState(saved);
  if (saved !== was) {
    setWas(saved);
    setText(saved);
  }
  const save = (): void => {
    if (text !== saved) void updateBreakpoint(bp, { [name]: text });
  };
  return (
    <label className="debug-bp-field">
      <span className="muted">{label}</span>
      <input value={text} placeholder={placeholder} spellCheck={false} onChange={(e) => setText(e.currentTarget.value)} onBlur={save} onKeyDown={(e) => e.key === 'Enter' && save()} />
    </label>
  );
}

/** Opens the breakpoint's file at its line in the Flows panel's editor. */
export function showInEditor(at: { integration: string; file: string; line: number }): void {
  useStudio.getState().showPanel('flows');
  openFileAt({ integration: at.integration, file: at.file }, at.line, 1);
}
