import { lazy, Suspense } from 'react';
import type { ResourceEditorProps } from './editor/ResourceEditorPane.tsx';

// Monaco is most of the renderer's weight; it loads when a resource is first opened.
const ResourceEditorPane = lazy(() => import('./editor/ResourceEditorPane.tsx'));

export function ResourceEditor(props: ResourceEditorProps) {
  return (
    <Suspense fallback={<div className="rs-editor muted">Loading the editor…</div>}>
      <ResourceEditorPane key={props.path} {...props} />
    </Suspense>
  );
}
