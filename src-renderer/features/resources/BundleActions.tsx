import { useRef, useState } from 'react';
import { resourceCalls } from '../../api/resource-calls.ts';
import { useStudio } from '../../store/studio-store.ts';
import { BundleImportDialog } from './BundleImportDialog.tsx';
import { download, toBase64 } from './bundle-bytes.ts';
import { messageOf } from './when.ts';

/** Export the integration as a bundle (a tar of definitions and resources), or import one after a preview. */
export function BundleActions({ integration }: { integration: string | undefined }) {
  const input = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<{ fileName: string; base64: string } | undefined>();
  const setNotice = useStudio((s) => s.setNotice);

  const exportIt = async (): Promise<void> => {
    if (!integration) return;
    try {
      const bundle = await resourceCalls.exportBundle(integration);
      download(bundle.fileName, bundle.base64);
    } catch (err) {
      setNotice(messageOf(err));
    }
  };

  return (
    <>
      <button type="button" disabled={!integration} onClick={() => void exportIt()}>
        Export bundle
      </button>
      <button type="button" onClick={() => input.current?.click()}>
        Import bundle…
      </button>
      <input
        ref={input}
        type="file"
        accept=".tar,application/x-tar"
        aria-label="Bundle file"
        hidden
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (!file) return;
          void file.arrayBuffer().then((buf) => setPicked({ fileName: file.name, base64: toBase64(new Uint8Array(buf)) }));
        }}
      />
      {picked ? <BundleImportDialog fileName={picked.fileName} base64={picked.base64} defaultTarget={integration} onClose={() => setPicked(undefined)} /> : null}
    </>
  );
}
