import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { studio } from './api/studio-client.ts';
import { syncWithStudio } from './api/studio-sync.ts';
import { App } from './App.tsx';
import './styles.css';
import { applyTheme } from './shell/theme.ts';
import { keepTabSessionOnLeave, pendingDraftKeys, rememberedPanel } from './shell/tab-session.ts';
import { useStudio } from './store/studio-store.ts';

applyTheme();
syncWithStudio(studio);
keepTabSessionOnLeave(() => ({ panel: useStudio.getState().panel, openFile: useStudio.getState().openFile }));
const panel = rememberedPanel();
if (panel) useStudio.getState().showPanel(panel);
// Files left unsaved before a reload say so in the file list before they are opened again.
for (const key of pendingDraftKeys()) useStudio.getState().setFileDirty(key, true);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
