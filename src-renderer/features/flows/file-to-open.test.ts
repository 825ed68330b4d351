import { describe, expect, it } from 'vitest';
import type { IntegrationSummary } from '../../../shared/studio-api.ts';
import { fileToOpen } from './file-to-open.ts';

const integration = (id: string, definitionFiles: string[], extra: Partial<IntegrationSummary> = {}): IntegrationSummary => ({ id, name: id, definitionFiles, testFiles: [], resourceFiles: [], ...extra });

describe('the file the editor shows', () => {
  const workspace = [integration('billing', ['billing.yaml']), integration('files', ['api.yaml', 'extra.yaml'])];

  it('stays on the open file while it exists', () => {
    const open = { integration: 'files', file: 'extra.yaml' };
    expect(fileToOpen(open, workspace)).toBe(open);
  });

  it('stays in the same integration when the open file is deleted, whichever answer comes first', () => {
    // The workspace event lists the integration without the deleted file before the delete answers.
    const after = [integration('billing', ['billing.yaml']), integration('files', ['api.yaml'])];
    expect(fileToOpen({ integration: 'files', file: 'extra.yaml' }, after)).toEqual({ integration: 'files', file: 'api.yaml' });
  });

  it('opens the first file of the first integration that runs as it is when nothing is left to keep', () => {
    const withNeeds = [integration('docstore', ['notes.yaml'], { needs: 'a MongoDB server' }), ...workspace];
    expect(fileToOpen(undefined, withNeeds)).toEqual({ integration: 'billing', file: 'billing.yaml' });
    expect(fileToOpen({ integration: 'gone', file: 'x.yaml' }, withNeeds)).toEqual({ integration: 'billing', file: 'billing.yaml' });
    expect(fileToOpen({ integration: 'files', file: 'x.yaml' }, [integration('files', [])])).toBeUndefined();
  });
});
