import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * How many children of a strip are out of its visible box (whole rows are hidden below its
 * height): counted again when the strip or its content changes size and when it scrolls, so a
 * "+N more" affordance says what a person does not see.
 */
export function useHiddenChipCount(strip: RefObject<HTMLElement | null>, contentKey: unknown): number {
  const [hidden, setHidden] = useState(0);
  useLayoutEffect(() => {
    const el = strip.current;
    if (!el) return;
    const count = (): void => {
      const box = el.getBoundingClientRect();
      let out = 0;
      for (const chip of el.children) {
        const r = chip.getBoundingClientRect();
        // Half a pixel of slack: row positions are fractional at some zoom levels.
        if (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) out++;
      }
      setHidden(out);
    };
    count();
    const resized = new ResizeObserver(count);
    resized.observe(el);
    el.addEventListener('scroll', count, { passive: true });
    return () => {
      resized.disconnect();
      el.removeEventListener('scroll', count);
    };
  }, [strip, contentKey]);
  return hidden;
}
