import { describe, expect, it } from 'vitest';
import { clientConfigOf, type DocstoreSettings } from './client-config.ts';
import { maskConnectionString } from './connection-string.ts';

const base: DocstoreSettings = { uri: 'mongodb://app@db.example.com:27017/shop', verifyOnStart: true, extendedJson: 'relaxed' };

describe('the docstore connection settings', () => {
  it('merges the password setting into the uri, percent-encoded, so only the password is a secret', () => {
    const c = clientConfigOf({ ...base, password: 'p@ss:w/rd' });
    expect(c.uri).toBe('mongodb://app:p%40ss%3Aw%2Frd@db.example.com:27017/shop');
    expect(c.maskedUri).toBe('mongodb://app:****@db.example.com:27017/shop');
    expect(c.warnings).toEqual([]);
  });

  it('lets the password setting override a password in the uri, with a warning naming which was used', () => {
    const c = clientConfigOf({ ...base, uri: 'mongodb://app:uri-pw-1@db.example.com/shop', password: 'setting-pw-2' });
    expect(c.uri).toBe('mongodb://app:setting-pw-2@db.example.com/shop');
    expect(c.warnings).toEqual(['the uri holds a password and the password setting is set; using the password setting']);
    expect(c.warnings.join()).not.toMatch(/pw-/);
  });

  it('keeps a password written in the uri when no password setting is given', () => {
    const c = clientConfigOf({ ...base, uri: 'mongodb://app:inuri@db.example.com/shop' });
    expect(c.uri).toBe('mongodb://app:inuri@db.example.com/shop');
    expect(c.warnings).toEqual([]);
  });

  it('refuses a password when the uri names no user, without echoing the password', () => {
    expect(() => clientConfigOf({ ...base, uri: 'mongodb://db.example.com/shop', password: 'hunter22' })).toThrow(
      'a password is set but the uri names no user; write the user in the uri, e.g. mongodb://appuser@db.example.com:27017',
    );
  });

  it('merges into the SRV form too', () => {
    const c = clientConfigOf({ ...base, uri: 'mongodb+srv://app@cluster0.example.net/shop?retryWrites=true', password: 's3cret' });
    expect(c.uri).toBe('mongodb+srv://app:s3cret@cluster0.example.net/shop?retryWrites=true');
  });

  it('refuses a uri that is not a connection string', () => {
    expect(() => clientConfigOf({ ...base, uri: 'postgres://app@db/shop' })).toThrow(/must start with mongodb:\/\/ or mongodb\+srv:\/\//);
    expect(() => clientConfigOf({ ...base, uri: 'mongodb://app@/shop' })).toThrow(/names no host/);
  });

  it('fills a gap with the defaults: 32 connections, a 30s timeout bounding server selection', () => {
    const c = clientConfigOf(base);
    // Selection ends just before the timeout so its own reason (e.g. ECONNREFUSED) is reported.
    expect(c.options).toEqual({ maxPoolSize: 32, serverSelectionTimeoutMS: 29_900, connectTimeoutMS: 30_000 });
    expect(c.timeoutMs).toBe(30_000);
  });

  it('lets the uri fill what the settings leave open, and a setting win over the uri', () => {
    const uri = 'mongodb://app@db.example.com/shop?maxPoolSize=7&timeoutMS=4000&minPoolSize=2';
    const fromUri = clientConfigOf({ ...base, uri });
    expect(fromUri.options.maxPoolSize).toBeUndefined(); // the driver reads 7 from the uri
    expect(fromUri.timeoutMs).toBe(4000);
    expect(fromUri.options.serverSelectionTimeoutMS).toBe(3900);
    // timeoutMS is enforced by the connector; the driver would only warn that it ignores it.
    expect(fromUri.uri).toBe('mongodb://app@db.example.com/shop?maxPoolSize=7&minPoolSize=2');

    const fromSettings = clientConfigOf({ ...base, uri, maxPoolSize: 50, minPoolSize: 5, maxConnIdleTime: 300_000, timeout: 2000 });
    expect(fromSettings.options).toEqual({ maxPoolSize: 50, minPoolSize: 5, maxIdleTimeMS: 300_000, serverSelectionTimeoutMS: 1900, connectTimeoutMS: 2000 });
    expect(fromSettings.timeoutMs).toBe(2000);
  });

  it('takes the database setting over the one in the uri path, and the path when the setting is absent', () => {
    expect(clientConfigOf({ ...base, database: 'other' }).database).toBe('other');
    expect(clientConfigOf(base).database).toBe('shop');
    expect(clientConfigOf({ ...base, uri: 'mongodb://db.example.com' }).database).toBeUndefined();
  });

  it('masks a password in any uri shown to people, even one it cannot parse', () => {
    expect(maskConnectionString('mongodb://u:secret@h:1/db?x=1')).toBe('mongodb://u:****@h:1/db?x=1');
    expect(maskConnectionString('mongodb://u:sec@ret@h/db')).toBe('mongodb://u:****@h/db');
    expect(maskConnectionString('weird://u:secret@h')).toBe('weird://u:****@h');
  });
});
