/** A date and time a person reads at a glance, e.g. `2025-03-04 14:05`. */
export function when(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The message of a failed call, for the panel to show where it happened. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
