/** Whether a `--store` value names PostgreSQL. */
export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//.test(url);

/** The URL with its password hidden, for messages and logs. */
export function redactStoreUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unparsable PostgreSQL URL)';
  }
}
