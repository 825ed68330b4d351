import { isMap, isScalar, parseDocument } from 'yaml';
import { StudioError } from './studio-error.ts';
import type { Workspace } from './workspace.ts';

/**
 * Writes `port` into the setting of an http connector in the definition file that declares it,
 * as a minimal edit of that YAML document: the port's own characters are replaced, everything
 * else kept byte for byte; a connector without a port setting gains one.
 */
export function writeConnectorPort(workspace: Workspace, integration: string, connector: string, port: number): void {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new StudioError(`port ${JSON.stringify(port)} is not a port; give 1-65535`);
  const dir = workspace.dirOf(integration);
  for (const path of workspace.definitionPaths(integration)) {
    const file = path.slice(dir.length + 1);
    const text = workspace.readFile(integration, file);
    const doc = parseDocument(text);
    if (!isMap(doc.getIn(['connectors', connector]))) continue;
    const current = doc.getIn(['connectors', connector, 'port'], true);
    if (isScalar(current) && current.range) {
      const [start, end] = current.range;
      workspace.writeFile(integration, file, text.slice(0, start) + String(port) + text.slice(end));
    } else {
      doc.setIn(['connectors', connector, 'port'], port);
      workspace.writeFile(integration, file, doc.toString());
    }
    return;
  }
  throw StudioError.notFound(`no definition file of ${integration} declares connector "${connector}"`);
}
