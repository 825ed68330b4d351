/**
 * The Electron main process: one window on the built renderer (served from the `app://` protocol
 * with the studio's CSP), the platform server and the studio backend in this process on
 * 127.0.0.1, and a clean shutdown that stops every runtime and closes the database. The workspace
 * is `--workspace DIR`, FLOW_STUDIO_WORKSPACE, the folder last opened with File → Open Workspace…,
 * or ~/FlowStudio (state/desktop-workspace.ts).
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, net, protocol, safeStorage, session, shell, type MenuItemConstructorOptions } from 'electron';
import { join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { studioContentSecurityPolicy } from '../../shared/content-security-policy.ts';
import type { KeySealer } from '../platform/index.ts';
import { createLogger } from '../runtime/index.ts';
import { sealedSecretBackend } from '../studio/resources/secret-backend.ts';
import { startStudioBackend, type StudioBackend } from '../studio/studio-backend.ts';
import { desktopWorkspace, rememberWorkspace, withoutWorkspaceArgument } from '../studio/state/desktop-workspace.ts';
import { forwardStudioEvents, registerStudioIpc } from './studio-ipc.ts';

const APP_ORIGIN = 'app://studio';
const appRoot = app.getAppPath();
const rendererDir = join(appRoot, 'dist-renderer');

protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

let backend: StudioBackend | undefined;
let window: BrowserWindow | undefined;

// Chromium keys this lock on the userData folder, so a second app quits before its backend starts.
// The backend's own lock on its data folder (platform/data-dir-lock.ts) is what keeps a
// `flow-studio serve --data-dir <userData>` and the app apart; a refusal ends here through fail().
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.whenReady().then(start).catch(fail);
}

async function start(): Promise<void> {
  protocol.handle('app', serveRenderer);
  // The studio never needs camera, notifications or the like.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  const dataDir = app.getPath('userData');
  const workspace = desktopWorkspace(process.argv.slice(1), process.env, dataDir);
  Menu.setApplicationMenu(applicationMenu(dataDir, workspace.dir));
  backend = await startStudioBackend({
    workspaceDir: workspace.dir,
    dataDir,
    // The secret store's key is sealed by the OS keyring; basic_text is refused until the user accepts it.
    secretBackend: sealedSecretBackend(safeStorageSealer(), dataDir),
    // Only a new ~/FlowStudio gets the samples: a folder a person chose is theirs.
    ...(workspace.samples ? { samplesDir: join(appRoot, 'examples') } : {}),
    shell: 'electron',
    log: createLogger({ level: 'warn' }),
  });
  registerStudioIpc(ipcMain, backend.api, (url) => url === APP_ORIGIN || url.startsWith(`${APP_ORIGIN}/`));
  openWindow(backend);
  app.on('activate', () => {
    if (!window && backend) openWindow(backend);
  });
}

/**
 * Electron's usual menus with File → Open Workspace…: the folder chosen is remembered in the data
 * folder and the app starts again on it, so every runtime of the old workspace stops cleanly first
 * (before-quit below) and nothing of it stays running beside the new one.
 */
function applicationMenu(dataDir: string, current: string): Menu {
  const openWorkspace = async (): Promise<void> => {
    const options = { title: 'Open Workspace', defaultPath: current, buttonLabel: 'Open Workspace', properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'> };
    const chosen = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
    const dir = chosen.filePaths[0];
    if (chosen.canceled || dir === undefined || dir === current) return;
    rememberWorkspace(dataDir, dir);
    app.relaunch({ args: withoutWorkspaceArgument(process.argv.slice(1)) });
    app.quit();
  };
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      {
        label: 'Open Workspace…',
        accelerator: 'CmdOrCtrl+O',
        click: () => void openWorkspace().catch((err: unknown) => dialog.showErrorBox('Could not open the workspace', err instanceof Error ? err.message : String(err))),
      },
      { label: 'Show Workspace Folder', click: () => void shell.openPath(current) },
      { type: 'separator' },
      process.platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    file,
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
  return Menu.buildFromTemplate(template);
}

/** Electron safeStorage as the platform's key sealer; only this file may import 'electron'. */
function safeStorageSealer(): KeySealer {
  return {
    name: 'Electron safeStorage',
    isAvailable: () => safeStorage.isEncryptionAvailable(),
    // Only Linux chooses among backends (and may fall back to basic_text); elsewhere it is the OS keychain.
    ...(process.platform === 'linux' ? { backend: () => safeStorage.getSelectedStorageBackend() } : {}),
    seal: (key) => safeStorage.encryptString(key.toString('base64')),
    unseal: (sealed) => Buffer.from(safeStorage.decryptString(sealed), 'base64'),
  };
}

function openWindow(studio: StudioBackend): void {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Flow Studio',
    show: false,
    webPreferences: {
      preload: join(appRoot, 'dist-electron', 'preload.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  window = win;
  const stopEvents = forwardStudioEvents(studio, win.webContents);
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.webContents.on('will-redirect', (event) => event.preventDefault());
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    stopEvents();
    window = undefined;
  });
  void win.loadURL(`${APP_ORIGIN}/index.html`);
}

/** Only plain web links leave the app, and only to the system browser. */
function isExternalWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

async function serveRenderer(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const rel = normalize(decodeURIComponent(pathname)).replace(/^[/\\]+/, '') || 'index.html';
  const file = join(rendererDir, rel);
  if (!file.startsWith(rendererDir + sep)) return new Response('not found', { status: 404 });
  const upstream = await net.fetch(pathToFileURL(file).toString());
  const headers = new Headers(upstream.headers);
  headers.set('Content-Security-Policy', studioContentSecurityPolicy);
  headers.set('X-Content-Type-Options', 'nosniff');
  return new Response(upstream.body, { status: upstream.status, headers });
}

let quitting = false;
app.on('before-quit', (event) => {
  if (quitting || !backend) return;
  // Stop every runtime (in-flight messages finish) and close the platform's database first.
  event.preventDefault();
  quitting = true;
  void backend.close().finally(() => app.exit(0));
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

function fail(err: unknown): void {
  console.error(`Flow Studio could not start: ${err instanceof Error ? err.message : String(err)}`);
  app.exit(1);
}
