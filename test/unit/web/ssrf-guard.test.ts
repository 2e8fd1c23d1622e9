// The SSRF check on its own: a table of hostile URLs that must all be refused (loopback, private and
// metadata addresses in every spelling, names that resolve to them, schemes other than http(s),
// credentials in the URL) and ordinary public URLs that must pass, with an injected resolver standing
// in for DNS so made-up names answer what each case needs.
import assert from 'node:assert/strict';
import { checkUrl, WebRefusal, type ResolvedAddress, type Resolver } from '../../../src/core/web/ssrf-guard';

const DNS: Record<string, string[]> = {
  'internal.test': ['10.1.2.3'],
  'mixed.test': ['93.184.216.34', '127.0.0.1'],
  'v6private.test': ['fd12:3456::1'],
  'metadata-alias.test': ['169.254.169.254'],
  'loopback-name.test': ['127.0.0.1'],
  'mapped.test': ['::ffff:192.168.0.1'],
  'cgnat.test': ['100.64.1.1'],
  'linklocal6.test': ['fe80::abcd'],
};
const PUBLIC_DNS: Record<string, string> = {
  'example.com': '93.184.216.34', 'www.example.org': '93.184.216.35', 'docs.python.org': '151.101.0.223',
  'developer.mozilla.org': '34.111.97.67', 'en.wikipedia.org': '185.15.59.224', 'github.com': '140.82.121.4',
  'news.ycombinator.com': '209.216.230.207', 'www.rust-lang.org': '2606:4700::6810:85e5', 'nodejs.org': '104.20.22.46',
  'registry.npmjs.org': '104.16.3.35', 'code.visualstudio.com': '13.107.246.40', 'stackoverflow.com': '198.252.206.16',
  'blog.example.net': '2a00:1450:4001:82b::200e', 'xn--bcher-kva.example': '93.184.216.36',
};

function resolverFrom(table: Record<string, string | string[]>, calls: string[] = []): Resolver {
  return async (host) => {
    calls.push(host);
    const answer = table[host];
    if (answer === undefined) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
    return ([] as string[]).concat(answer).map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

async function refusal(url: string, opts: Parameters<typeof checkUrl>[1] = {}): Promise<string> {
  try {
    const checked = await checkUrl(url, { resolve: resolverFrom({ ...DNS, ...PUBLIC_DNS }), ...opts });
    return `allowed (pinned to ${checked.pinned.address})`;
  } catch (e) {
    assert.ok(e instanceof WebRefusal, `${url}: expected a refusal, got ${String(e)}`);
    return e.message;
  }
}

const HOSTILE: [string, RegExp][] = [
  ['http://127.0.0.1/', /loopback/],
  ['http://127.1/', /loopback/],
  ['http://0x7f000001/', /loopback/],
  ['http://2130706433/', /loopback/],
  ['http://0177.0.0.1/', /loopback/],
  ['http://0x7f.0.0.1/', /loopback/],
  ['http://%31%32%37.0.0.1/', /loopback/],
  ['http://127.255.255.254:8080/admin', /loopback/],
  ['http://[::1]/', /loopback/],
  ['http://[0:0:0:0:0:0:0:1]/', /loopback/],
  ['http://[::ffff:127.0.0.1]/', /loopback/],
  ['http://[::ffff:7f00:1]/', /loopback/],
  ['http://[0:0:0:0:0:ffff:127.0.0.1]/', /loopback/],
  ['http://localhost/', /loopback/],
  ['http://localhost./', /loopback/],
  ['http://LOCALHOST:8080/', /loopback/],
  ['http://app.localhost/', /loopback/],
  ['http://\u24dbocalhost/', /loopback/],
  ['http://loopback-name.test/', /loopback/],
  ['http://169.254.169.254/latest/meta-data', /link-local/],
  ['http://0251.0376.0251.0376/latest/meta-data', /link-local/],
  ['http://2852039166/', /link-local/],
  ['http://[::ffff:a9fe:a9fe]/', /link-local/],
  ['http://[fd00:ec2::254]/latest/meta-data', /unique-local/],
  ['http://metadata.google.internal/computeMetadata/v1/', /metadata/],
  ['http://metadata-alias.test/', /link-local/],
  ['http://100.100.100.200/latest/meta-data', /carrier-grade NAT/],
  ['http://168.63.129.16/machine', /metadata/],
  ['http://10.0.0.1/', /private/],
  ['http://172.16.5.4/', /private/],
  ['http://192.168.1.1/', /private/],
  ['http://internal.test/', /private/],
  ['http://mapped.test/', /private/],
  ['http://mixed.test/', /loopback/],
  ['http://v6private.test/', /unique-local/],
  ['http://linklocal6.test/', /link-local/],
  ['http://cgnat.test/', /carrier-grade NAT/],
  ['http://100.64.0.1/', /carrier-grade NAT/],
  ['http://0.0.0.0/', /unspecified/],
  ['http://0/', /unspecified/],
  ['http://[::]/', /unspecified/],
  ['http://224.0.0.1/', /multicast/],
  ['http://255.255.255.255/', /broadcast/],
  ['http://[fe80::1]/', /link-local/],
  ['http://[fc00::1]/', /unique-local/],
  ['http://[64:ff9b::7f00:1]/', /loopback/],
  ['http://[2002:7f00:1::]/', /loopback/],
  ['http://[2002:c0a8:101::]/', /private/],
  ['http://192.0.2.1/', /reserved/],
  ['http://user:pass@example.com/', /credentials/],
  ['http://user@example.com/', /credentials/],
  ['gopher://example.com:70/_GET', /Only http and https/],
  ['file:///etc/passwd', /Only http and https/],
  ['ftp://example.com/', /Only http and https/],
  ['javascript:alert(1)', /Only http and https/],
  ['data:text/html,hello', /Only http and https/],
  ['ws://example.com/', /Only http and https/],
  ['http://nxdomain.test/', /Could not resolve/],
  ['not a url', /not a valid URL/],
  ['http://', /not a valid URL/],
];

describe('web: the SSRF guard', () => {
  it(`refuses every one of ${HOSTILE.length} hostile URLs, each for its reason`, async () => {
    assert.ok(HOSTILE.length >= 40);
    for (const [url, why] of HOSTILE) {
      const message = await refusal(url);
      assert.match(message, why, `${url} → ${message}`);
    }
  });

  it('allows ordinary public URLs and pins each to the address its one lookup returned', async () => {
    const urls = [
      ...Object.keys(PUBLIC_DNS).map((h, i) => `${i % 2 ? 'https' : 'http'}://${h}/path?q=${i}`),
      'https://bücher.example/', 'http://8.8.8.8/', 'https://[2606:4700:4700::1111]/dns-query', 'https://example.com:8443/x',
      'HTTP://EXAMPLE.COM/Upper', 'https://example.com./trailing-dot',
    ];
    assert.ok(urls.length >= 20);
    for (const url of urls) {
      const calls: string[] = [];
      const checked = await checkUrl(url, { resolve: resolverFrom({ ...PUBLIC_DNS, 'xn--bcher-kva.example': '93.184.216.36' }, calls) });
      const expected = PUBLIC_DNS[checked.host] ?? checked.host;
      assert.equal(checked.pinned.address, expected, url);
      assert.ok(calls.length <= 1, `${url} resolved ${calls.length} times`);
    }
  });

  it('lets loopback through only when asked: on any port, or only on the listed ports', async () => {
    assert.match(await refusal('http://127.0.0.1:8123/'), /loopback/);
    assert.match(await refusal('http://127.0.0.1:8123/', { allowLoopback: true }), /allowed/);
    assert.match(await refusal('http://localhost:3000/', { allowLoopback: true, resolve: resolverFrom({ localhost: ['127.0.0.1', '::1'] }) }), /allowed \(pinned to 127\.0\.0\.1\)/);
    assert.match(await refusal('http://127.0.0.1:8123/', { allowLoopback: { ports: [8123] } }), /allowed/);
    assert.match(await refusal('http://127.0.0.1:8124/', { allowLoopback: { ports: [8123] } }), /loopback/);
    assert.match(await refusal('http://[::1]:8123/', { allowLoopback: { ports: [8123] } }), /allowed/);
  });

  it('keeps private, link-local and metadata addresses refused even with loopback allowed', async () => {
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/', 'http://[fd00:ec2::254]/', 'http://internal.test/', 'http://168.63.129.16/', 'http://metadata.google.internal/']) {
      assert.doesNotMatch(await refusal(url, { allowLoopback: true }), /^allowed/, url);
    }
  });

  it('applies the domain lists: deny wins, and an allow list admits only its hosts', async () => {
    assert.match(await refusal('https://ads.example.com/', { denyDomains: ['*.example.com'] }), /denyDomains/);
    assert.match(await refusal('https://example.com/', { denyDomains: ['*.example.com'] }), /allowed/);
    assert.match(await refusal('https://github.com/', { allowDomains: ['*.org', 'example.com'] }), /allowDomains/);
    assert.match(await refusal('https://docs.python.org/', { allowDomains: ['*.org'] }), /allowed/);
    assert.match(await refusal('https://docs.python.org/', { allowDomains: ['*.org'], denyDomains: ['DOCS.python.org'] }), /denyDomains/);
  });
});
