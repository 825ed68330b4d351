/**
 * The studio's Content Security Policy, identical in Electron and web mode. Scripts and workers
 * (Monaco's editor workers are bundled files) come only from the app itself. Styles allow inline
 * because the editor injects <style> elements at run time; no script is ever inline.
 */
export const studioContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
