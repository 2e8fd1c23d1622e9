// The team store's connection settings: a URL without secrets, a schema name that is only a name,
// TLS on unless turned off; the password comes from elsewhere (SecretStorage, PGPASSWORD).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { teamStoreConnection } from '../../../src/core/teams/postgres/team-store-settings';
import { removeTempDirs, tempDir } from '../../support/storage-fixtures';

describe('teams: the team store settings', () => {
  after(removeTempDirs);

  it('a URL names host, port, database and user; the password is passed beside it; TLS is verified by default', () => {
    const c = teamStoreConnection({ url: 'postgres://ann%40corp@db.example.com:6543/teamwork', schema: 'project_a' }, 's3cret-from-secret-storage');
    assert.deepEqual(c.client, { host: 'db.example.com', port: 6543, database: 'teamwork', user: 'ann@corp', password: 's3cret-from-secret-storage', ssl: { rejectUnauthorized: true } });
    assert.equal(c.schema, 'project_a');
    assert.equal(c.where, 'db.example.com:6543/teamwork');
    const bare = teamStoreConnection({ url: 'postgresql://db.internal' });
    assert.deepEqual(bare.client, { host: 'db.internal', port: 5432, database: 'postgres', ssl: { rejectUnauthorized: true } }, 'no password: the client reads PGPASSWORD or ~/.pgpass itself');
    assert.equal(bare.schema, 'pincer');
  });

  it('TLS: off, on without checking the certificate, or checked against a CA file', () => {
    assert.equal(teamStoreConnection({ url: 'postgres://u@127.0.0.1/db', tls: { mode: 'disable' } }).client.ssl, false);
    assert.deepEqual(teamStoreConnection({ url: 'postgres://u@h/db', tls: { mode: 'require' } }).client.ssl, { rejectUnauthorized: false });
    const ca = path.join(tempDir('tls'), 'ca.pem');
    fs.writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    assert.deepEqual(teamStoreConnection({ url: 'postgres://u@h/db', tls: { mode: 'verify', caFile: ca } }).client.ssl, { rejectUnauthorized: true, ca: fs.readFileSync(ca, 'utf8') });
  });

  it('a password in the URL is refused without repeating it', () => {
    assert.throws(() => teamStoreConnection({ url: 'postgres://ann:hunter2-very-secret@db.example.com/team' }), (e: Error) =>
      /holds a password: settings are not a place for secrets/.test(e.message) && !e.message.includes('hunter2'));
  });

  it('a schema that is more than a name, another scheme, or no URL at all is refused with the field named', () => {
    assert.throws(() => teamStoreConnection({ url: 'postgres://u@h/db', schema: 'x; DROP SCHEMA public CASCADE' }), /^Error: pincer\.teamStore: schema: a schema name is lowercase letters/);
    assert.throws(() => teamStoreConnection({ url: 'postgres://u@h/db', schema: 'Mixed"Case' }), /schema: a schema name/);
    assert.throws(() => teamStoreConnection({ url: 'mysql://u@h/db' }), /the scheme must be postgres:\/\/ \(got mysql:\/\/\)/);
    assert.throws(() => teamStoreConnection({ url: 'db.example.com' }), /is not a URL; it looks like postgres:\/\/user@host:5432\/database/);
    assert.throws(() => teamStoreConnection({}), /pincer\.teamStore: url: /);
  });
});
