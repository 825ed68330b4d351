import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./src-renderer', import.meta.url));

// The renderer is built to static files that the web studio and Electron's app:// protocol serve
// under the same CSP (script-src 'self'): no inline scripts, no eval, no polyfill injected inline.
export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist-renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    sourcemap: false,
    chunkSizeWarningLimit: 4096,
  },
  server: { host: '127.0.0.1', strictPort: true },
});
