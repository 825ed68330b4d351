// Re-exported from our own file so Vite bundles it as a worker of this app (see monaco-yaml's FAQ
// on Vite); monaco-yaml's own entry cannot be used with `?worker` directly.
import 'monaco-yaml/yaml.worker.js';
