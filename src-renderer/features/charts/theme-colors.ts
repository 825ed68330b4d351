/**
 * The theme's colours as the canvas needs them: a CSS variable holds `light-dark(…)`, which only
 * a styled element resolves, so one is asked once per chart (and again when the theme changes).
 */
export function themeColor(variable: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback;
  const probe = document.createElement('span');
  probe.style.color = `var(${variable})`;
  probe.style.display = 'none';
  document.body.appendChild(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color || fallback;
}
