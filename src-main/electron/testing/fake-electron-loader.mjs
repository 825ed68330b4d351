// Node module hooks that resolve 'electron' to the stand-in; importing the real package would
// try to download the Electron binary.
import { register } from 'node:module';

const fake = new URL('./fake-electron.mjs', import.meta.url).href;
const hooks = `export async function resolve(specifier, context, next) { return specifier === 'electron' ? { url: ${JSON.stringify(fake)}, shortCircuit: true } : next(specifier, context); }`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
