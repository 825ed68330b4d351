import { badRequest } from '../http/api-error.ts';

/**
 * Name rules of the management API. Each broken rule has its own error code and a message that
 * says which rule and what to do (spec 2 §2.11, §7).
 */

export const MAX_RESOURCE_NAME = 512;
const CONTROL = /[\u0000-\u001f\u007f\\]/;

/** A resource name: relative and path-like; checked without regard to other resources. */
export function checkResourceName(name: string): string {
  if (name === '') throw badRequest('resource_name_empty', 'a resource needs a "name", e.g. "emails/welcome.txt"');
  if (name.length > MAX_RESOURCE_NAME) throw badRequest('resource_name_too_long', `the resource name is ${name.length} characters long; the limit is ${MAX_RESOURCE_NAME}`);
  if (CONTROL.test(name)) {
    throw badRequest('resource_name_invalid_character', `the resource name "${printable(name)}" contains a control character or a backslash; separate folders with /`);
  }
  if (name.startsWith('/')) throw badRequest('resource_name_absolute', `the resource name "${name}" is absolute; names are relative: drop the leading /`);
  const segments = name.split('/');
  if (segments.some((s) => s === '..' || s === '.')) {
    throw badRequest('resource_name_dot_segment', `the resource name "${name}" contains a "${segments.includes('..') ? '..' : '.'}" segment; name the folders it lives in`);
  }
  if (segments.some((s) => s === '')) throw badRequest('resource_name_empty_segment', `the resource name "${name}" has an empty segment (a doubled or trailing /)`);
  if (segments.length === 1 && isDefinitionName(name)) {
    throw badRequest('resource_name_root_yaml', `the resource name "${name}" is a root-level YAML file, which is where flow definitions live; nest it (e.g. "config/${name}") or rename it`);
  }
  return name;
}

/** Root-level `*.yaml` / `*.yml` names are flow definitions. */
export function isDefinitionName(name: string): boolean {
  return /\.ya?ml$/i.test(name) && !name.includes('/');
}

export function checkDefinitionFile(file: string): string {
  if (!isDefinitionName(file) || file.startsWith('.') || CONTROL.test(file) || file.length > 255) {
    throw badRequest('invalid_definition_file', `"${printable(file)}" is not a definition file name; a definition is a root-level file ending in .yaml or .yml, e.g. "orders.yaml"`);
  }
  return file;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Integration ids, tag names and deployment ids: one path segment a person can type. */
export function checkId(value: string, what: string, example: string): string {
  if (!ID.test(value)) {
    throw badRequest('invalid_name', `${what} "${printable(value).slice(0, 140)}" must be 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit, e.g. "${example}"`);
  }
  return value;
}

const SECRET_NAME = /^[-._A-Za-z0-9]{1,253}$/;

/** A cluster secret name is a key of the `flow-secrets` object: the characters such keys allow. */
export function checkSecretName(name: string): string {
  if (!SECRET_NAME.test(name) || name === '.' || name === '..') {
    throw badRequest('invalid_secret_name', `the secret name "${printable(name).slice(0, 140)}" must be 1 to 253 letters, digits, ".", "_" or "-", e.g. "orders-db-password"`);
  }
  return name;
}

/** Who made a write: `X-Flow-Actor`, `local` when absent. */
export function actorOf(header: string | string[] | undefined): string {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return 'local';
  if (value.length > 200 || /[\u0000-\u001f\u007f]/.test(value)) {
    throw badRequest('invalid_header', 'X-Flow-Actor names who makes the write: up to 200 printable characters, e.g. "ana@example.com"');
  }
  return value;
}

function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, '?');
}
