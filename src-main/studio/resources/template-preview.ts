import type { CelSample } from '../../../shared/flow-design.ts';
import type { TemplatePreview } from '../../../shared/resource-types.ts';
import { compileTemplate, errorMessage } from '../../runtime/index.ts';

const MAX_TEMPLATE = 1024 * 1024;

/**
 * Renders template text against a sample message exactly as the template block does (same
 * compiler, same CEL, `body`, `vars` and `correlationID` in scope). Templates have no secret()
 * and no resource access, so a preview cannot reveal anything the sample does not hold.
 */
export function previewTemplate(text: string, sample: CelSample): TemplatePreview {
  if (typeof text !== 'string') return { ok: false, error: 'the template must be text' };
  if (text.length > MAX_TEMPLATE) return { ok: false, error: `the template is over ${MAX_TEMPLATE / 1024} KiB; preview a smaller one` };
  const s = sample && typeof sample === 'object' ? sample : ({ body: null, vars: {} } as CelSample);
  try {
    const compiled = compileTemplate('preview', text);
    const rendered = compiled.render({
      body: s.body ?? null,
      vars: s.vars && typeof s.vars === 'object' ? s.vars : {},
      correlationID: typeof s.correlationID === 'string' ? s.correlationID : 'preview',
      error: s.error ?? null,
    });
    return { ok: true, text: rendered };
  } catch (err) {
    // The compiler names the template; here the person is looking at it, so say the line.
    return { ok: false, error: errorMessage(err).replace(/^template preview:(\d+): /, 'line $1: ').replace(/^template preview: /, '') };
  }
}
