import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { studio } from './api/studio-client.ts';
import { syncWithStudio } from './api/studio-sync.ts';
import { App } from './App.tsx';
import './styles.css';
import { applyTheme } from './shell/theme.ts';
import { keepTabSessionOnLeave, pendingDraftKeys } from './features/flows/editor/tab-session.ts';
import { useStudio } from './store/studio-store.ts';

applyTheme();
syncWithStudio(studio);
keepTabSessionOnLeave(() => useStudio.getState().openFile);
// Files left unsaved before a reload say so in the file list before they are opened again.
for (const key of pendingDraftKeys()) useStudio.getState().setFileDirty(key, true);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
