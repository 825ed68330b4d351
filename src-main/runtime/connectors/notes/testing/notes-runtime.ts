import type { LogRecord } from '../../../core/logger.ts';
import type { Runtime } from '../../../core/runtime.ts';
import { startYaml } from '../../../testing/load-yaml.ts';
import type { NotesApiDouble } from './notes-api-double.ts';

/**
 * A started runtime whose `notes` connector talks to the double. `flows` is the YAML under
 * `flows:`, indented by two spaces; `connector` adds settings to the connector.
 */
export async function startAgainstDouble(double: NotesApiDouble, flows: string, connector: Record<string, string> = {}): Promise<{ runtime: Runtime; logs: LogRecord[] }> {
  const settings = { type: 'notes', token: double.token, apiBaseURL: double.baseURL, ...connector };
  const lines = Object.entries(settings).map(([k, v]) => `    ${k}: ${v}`);
  return startYaml(`connectors:\n  notes:\n${lines.join('\n')}\nflows:\n${flows}`);
}
