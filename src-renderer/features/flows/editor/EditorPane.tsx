import { useEffect, useRef } from 'react';
import { useStudio } from '../../../store/studio-store.ts';
import { FlowEditor } from './flow-editor.ts';

/** Hosts the Monaco editor; loaded on demand because Monaco is most of the renderer's weight. */
export default function EditorPane() {
  const container = useRef<HTMLDivElement>(null);
  const editor = useRef<FlowEditor | undefined>(undefined);
  const openFile = useStudio((s) => s.openFile);

  useEffect(() => {
    const e = new FlowEditor(container.current!);
    editor.current = e;
    return () => {
      editor.current = undefined;
      e.dispose();
    };
  }, []);

  useEffect(() => {
    void editor.current?.show(openFile);
  }, [openFile]);

  return <div ref={container} className="flow-editor" data-testid="flow-editor" />;
}
