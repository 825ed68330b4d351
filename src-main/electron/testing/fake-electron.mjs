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
  exit(code) {
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
export const shell = { openExternal: async () => {} };
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
    setTimeout(() => app.quit(), 50);
  }
}
