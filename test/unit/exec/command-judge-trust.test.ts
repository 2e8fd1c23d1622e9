// Trust widened by one command (scopes, certificates, signers, root CAs, overlay networks, remote
// shells, another account) and remote resources ended through verbs the cloud rules did not know
// (SaaS CLIs' delete verbs and API paths that cancel or delete, aws verbs that rewrite what a
// resource keeps or where a name points) — each with the everyday neighbours that must still run.
import assert from 'node:assert/strict';
import { removeTempDirs } from '../../support/fs-fixtures';
import { judgeIn } from './judge-support';

describe('exec judge: trust widened and remote resources ended', () => {
  // The workspace is made when this suite starts: another file's after(removeTempDirs) must not take it first.
  let judge: ReturnType<typeof judgeIn>['judge'];
  before(() => { ({ judge } = judgeIn()); });
  after(removeTempDirs);
  const expect = async (decision: 'allow' | 'ask' | 'deny', lines: string[]) => {
    for (const c of lines) assert.equal((await judge(c)).decision, decision, c);
  };

  it('scopes added to a login, a certificate request or an image signer approved, another account or a remote shell: asks', async () => {
    await expect('ask', [
      'gh auth refresh -h github.com -s delete_repo,admin:org', 'gh auth login --scopes admin:org', 'kubectl certificate approve attacker-csr',
      'docker trust signer add --key attacker.pub attacker acme/api', 'runas /user:Administrator cmd', 'zerotier-cli join 8056c2e21c000001',
      'netbird up --setup-key 1234-ABCD --management-url https://nb.example.net', 'Enable-PSRemoting -Force -SkipNetworkProfileCheck',
      "Set-Item WSMan:\\localhost\\Client\\TrustedHosts -Value '*' -Force", 'Enter-PSSession -ComputerName dc01 -Credential corp\\admin',
    ]);
  });

  it('a root certificate added to a trust store is denied', async () => {
    await expect('deny', ['certutil -addstore -f Root mitm-ca.cer', 'security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ca.pem', 'keytool -importcert -cacerts -alias x -file x.pem -noprompt']);
  });

  it('reading who is logged in, the certificate requests and the trust data runs', async () => {
    await expect('allow', ['gh auth status', 'gh auth refresh', 'kubectl get csr', 'docker trust inspect acme/api', 'certutil -hashfile setup.exe SHA256', 'zerotier-cli info', 'keytool -list -keystore build/test.jks -storepass changeit']);
  });

  it('SaaS CLIs whose verb deletes, API paths that cancel, and aws verbs that rewrite what a resource keeps are remote destruction', async () => {
    for (const c of [
      'databricks clusters permanent-delete --cluster-id 0123-456789-abcd', 'stripe post /v1/subscriptions/sub_1MowQVLkdIwHu7ixeRlqHVzs/cancel', 'stripe customers delete cus_123',
      'twilio api:core:messages:remove --sid SM123', 'aws route53 change-resource-record-sets --hosted-zone-id Z1 --change-batch file://delete-apex.json',
      "aws s3api put-bucket-lifecycle-configuration --bucket backups --lifecycle-configuration '{\"Rules\":[{\"ID\":\"x\",\"Status\":\"Enabled\",\"Filter\":{},\"Expiration\":{\"Days\":1}}]}'",
      'aws dynamodb batch-write-item --request-items file://delete-all.json',
    ]) {
      const v = await judge(c);
      assert.equal(v.decision, 'ask', c);
      assert.equal(v.group, 'remote_destruction', c);
    }
  });

  it('listing, reading and creating through the same CLIs runs', async () => {
    await expect('allow', ['databricks clusters list', 'stripe customers list --limit 3', 'stripe get /v1/subscriptions/sub_123', 'aws route53 list-hosted-zones', 'aws s3api get-bucket-lifecycle-configuration --bucket backups', 'aws dynamodb scan --table-name dev-items --max-items 5']);
  });
});
