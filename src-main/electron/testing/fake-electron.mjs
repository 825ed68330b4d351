// A stand-in for the 'electron' module, for running the bundled main process under plain Node
// where the Electron binary is absent. It records what main asks of Electron and, once the window
// loads, reports that as one JSON line and quits the way a person closing the app would.
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const record = { windows: [], ipcChannels: [], protocols: [], privileged: [], page: undefined, permissionHandler: false };

class App extends EventEmitter {
  whenReady() { return Promise.resolve(); }
  requestSingleInstanceLock() { return true; }
  getAppPath() { return process.env.FAKE_ELECTRON_APP_ROOT; }
  getPath() { return process.env.FAKE_ELECTRON_USER_DATA; }
  quit() {
    const event = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.exit(0);
  }
  relaunch(options) { record.relaunch = options; }
  exit(code) {
    console.log(`FINAL ${JSON.stringify(record)}`);
    console.log(`EXIT ${code}`);
    process.exit(code);
  }
}
export const app = new App();

export const protocol = {
  registerSchemesAsPrivileged: (schemes) => record.privileged.push(...schemes.map((s) => s.scheme)),
  handle: (scheme, handler) => {
    record.protocols.push(scheme);
    protocol.handler = handler;
  },
};

export const net = {
  fetch: async (url) => new Response(await readFile(fileURLToPath(url)), { headers: { 'content-type': 'text/html' } }),
};

export const ipcMain = { handle: (channel) => record.ipcChannels.push(channel), removeHandler: () => {} };
export const session = { defaultSession: { setPermissionRequestHandler: () => (record.permissionHandler = true) } };
export const shell = { openExternal: async () => {}, openPath: async (path) => { record.openedPath = path; return ''; } };

// The application menu as built, and a way to click one of its items by its labels ("File/Open Workspace…").
export const Menu = {
  buildFromTemplate: (template) => ({ template }),
  setApplicationMenu: (menu) => {
    Menu.current = menu;
    record.menu = menu.template.map((m) => m.label ?? m.role);
    record.fileMenu = menu.template.find((m) => m.label === 'File')?.submenu.map((i) => i.label ?? i.role ?? i.type);
  },
};
function clickMenu(path) {
  const [top, item] = path.split('/');
  const found = Menu.current?.template.find((m) => m.label === top)?.submenu.find((i) => i.label === item);
  if (!found) throw new Error(`no menu item ${path}`);
  found.click();
}

// The folder dialog answers with FAKE_ELECTRON_CHOOSE, as if the person picked that folder.
export const dialog = {
  showOpenDialog: async (...args) => {
    const options = args[args.length - 1];
    record.openDialog = { title: options.title, properties: options.properties, defaultPath: options.defaultPath };
    const chosen = process.env.FAKE_ELECTRON_CHOOSE;
    return chosen ? { canceled: false, filePaths: [chosen] } : { canceled: true, filePaths: [] };
  },
  showErrorBox: (title, content) => (record.errorBox = { title, content }),
};
// safeStorage as on a Linux desktop with a keyring; "sealing" only wraps the text, which is all a stand-in needs.
export const safeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (text) => Buffer.from(`sealed:${text}`),
  decryptString: (buf) => Buffer.from(buf).toString().replace(/^sealed:/, ''),
};

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    record.windows.push(options.webPreferences);
    this.webContents = Object.assign(new EventEmitter(), {
      setWindowOpenHandler: (h) => (record.windowOpen = h({ url: 'file:///etc/passwd' })),
      send: () => {},
      isDestroyed: () => false,
    });
  }
  once(name, fn) { return super.once(name, fn); }
  show() {}
  async loadURL(url) {
    const res = await protocol.handler(new Request(url));
    record.page = { url, status: res.status, csp: res.headers.get('content-security-policy'), body: (await res.text()).slice(0, 200) };
    const navigation = { prevented: false, preventDefault() { this.prevented = true; } };
    this.webContents.emit('will-navigate', navigation, 'https://evil.example/');
    record.navigationBlocked = navigation.prevented;
    console.log(`READY ${JSON.stringify(record)}`);
    // FAKE_ELECTRON_CLICK: a menu item the person clicks once the window shows; Open Workspace… quits by itself.
    const click = process.env.FAKE_ELECTRON_CLICK;
    if (click) clickMenu(click);
    if (click !== 'File/Open Workspace…') setTimeout(() => app.quit(), 50);
  }
}
