// The web settings: safe defaults, every one a user setting a repository cannot set, and each
// contributed in package.json with the same default and an application scope.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readConfig, USER_ONLY_SETTINGS } from '../../../src/core/config';
import { ALIASES, STATIC_GROUPS } from '../../../src/core/policy/groups';

describe('web: settings and policy names', () => {
  it('defaults: localhost refused, no domain lists, the keyed providers then DuckDuckGo', () => {
    assert.deepEqual(readConfig(() => undefined).web, {
      allowLocalhost: false, allowDomains: [], denyDomains: [], searchProviders: ['exa', 'tavily', 'brave', 'duckduckgo'],
      browser: { executablePath: undefined, headless: true, profile: undefined },
    });
  });

  it('keeps a bad value at its default with a warning', () => {
    const warnings: string[] = [];
    const c = readConfig((k) => ({ 'web.allowLocalhost': 'yes', 'web.denyDomains': [''] } as Record<string, unknown>)[k], (m) => warnings.push(m));
    assert.equal(c.web.allowLocalhost, false);
    assert.deepEqual(c.web.denyDomains, []);
    assert.equal(warnings.length, 2);
  });

  it('makes every web setting user-only and contributes it with an application scope and the same default', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { default?: unknown; scope?: string }> } } };
    const props = pkg.contributes.configuration.properties;
    const defaults = readConfig(() => undefined).web as unknown as Record<string, unknown>;
    for (const key of ['allowLocalhost', 'allowDomains', 'denyDomains', 'searchProviders']) {
      assert.ok(USER_ONLY_SETTINGS.has(`web.${key}`), key);
      const prop = props[`pincer.web.${key}`];
      assert.equal(prop?.scope, 'application', key);
      // DuckDuckGo is appended by the reader, not listed in the setting's default.
      const expected = key === 'searchProviders' ? (defaults[key] as string[]).filter((p) => p !== 'duckduckgo') : defaults[key];
      assert.deepEqual(prop.default, expected, key);
    }
  });

  it('makes the browser settings user-only (a repository must not pick the program started or a profile with logins), contributed with an application scope', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { default?: unknown; scope?: string }> } } };
    const props = pkg.contributes.configuration.properties;
    for (const [key, def] of [['executablePath', ''], ['headless', true], ['profile', '']] as const) {
      assert.ok(USER_ONLY_SETTINGS.has(`browser.${key}`), key);
      assert.equal(props[`pincer.browser.${key}`]?.scope, 'application', key);
      assert.deepEqual(props[`pincer.browser.${key}`].default, def, key);
    }
    const c = readConfig((k) => ({ 'browser.executablePath': '/opt/chrome', 'browser.headless': false } as Record<string, unknown>)[k]);
    assert.deepEqual(c.web.browser, { executablePath: '/opt/chrome', headless: false, profile: undefined });
  });

  it('puts both tools in group web, with the names other agents call them by', () => {
    assert.deepEqual(STATIC_GROUPS.web, ['web_fetch', 'web_search']);
    assert.equal(ALIASES.WebFetch, 'web_fetch');
    assert.equal(ALIASES.WebSearch, 'web_search');
  });
});
