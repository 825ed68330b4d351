import { useEffect, useState } from 'react';
import type { CelSample } from '../../../shared/flow-design.ts';
import type { TemplatePreview as Preview } from '../../../shared/resource-types.ts';
import { resourceCalls } from '../../api/resource-calls.ts';

const DEFAULT_SAMPLE = '{\n  "body": {"name": "Ana", "items": [{"sku": "A-1", "quantity": 2}]},\n  "vars": {"method": "POST"}\n}';

/** The template rendered against a sample message, again a moment after either changes. */
export function TemplatePreview({ text }: { text: string }) {
  const [sampleText, setSampleText] = useState(DEFAULT_SAMPLE);
  const [preview, setPreview] = useState<Preview | undefined>();
  const sample = parseSample(sampleText);

  useEffect(() => {
    const parsed = parseSample(sampleText);
    if (!parsed.ok) return;
    let current = true;
    const timer = setTimeout(() => {
      resourceCalls.previewTemplate(text, parsed.value).then(
        (p) => current && setPreview(p),
        (err: unknown) => current && setPreview({ ok: false, error: err instanceof Error ? err.message : String(err) }),
      );
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, sampleText]);

  return (
    <section className="rs-preview" aria-label="Template preview">
      <label className="rs-hint muted">
        Sample message (<code>body</code>, <code>vars</code>)
        <textarea aria-label="Sample message" rows={7} spellCheck={false} value={sampleText} onChange={(e) => setSampleText(e.currentTarget.value)} />
      </label>
      {!sample.ok ? <p className="rs-error rs-hint">{sample.error}</p> : null}
      <div className="rs-hint muted">Rendered</div>
      {preview === undefined ? (
        <p className="muted rs-hint">Rendering…</p>
      ) : preview.ok ? (
        <pre aria-label="Rendered template">{preview.text}</pre>
      ) : (
        <p className="rs-error rs-hint" role="alert">
          {preview.error}
        </p>
      )}
    </section>
  );
}

function parseSample(text: string): { ok: true; value: CelSample } | { ok: false; error: string } {
  try {
    const v = JSON.parse(text) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return { ok: false, error: 'the sample is a JSON object with "body" and "vars"' };
    const o = v as Record<string, unknown>;
    const vars = o.vars && typeof o.vars === 'object' && !Array.isArray(o.vars) ? (o.vars as Record<string, unknown>) : {};
    return { ok: true, value: { body: o.body ?? null, vars } };
  } catch (err) {
    return { ok: false, error: `the sample is not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}
