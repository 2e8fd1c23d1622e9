// Token formats of cloud providers and infrastructure services. Each row: the documented prefix and
// body shape, and where the shape is documented.
import { AN, B64, B64U, BODY_MAX, HEX, atLeast, exact, fmt, type TokenFormat } from './scrub-token-format';

const UUID = '[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}(?![a-f0-9])';

export const CLOUD_TOKENS: readonly TokenFormat[] = [
  ...['AKIA', 'ASIA', 'ABIA', 'ACCA'].map((p) => fmt(`aws-${p}`, p, exact('A-Z0-9', 16),
    'AWS IAM docs (unique identifier prefixes); gitleaks aws-access-token; secretlint aws')),
  fmt('aws-bedrock', 'ABSK', atLeast('A-Za-z0-9+/=', 100), 'AWS Bedrock docs (API keys); gitleaks aws-amazon-bedrock-api-key'),
  fmt('google-api-key', 'AIza', exact(B64U, 35), 'Google Cloud docs (API keys); gitleaks gcp-api-key; secretlint gcp'),
  fmt('google-oauth-access', 'ya29.', atLeast(B64U, 20), 'Google OAuth docs; trufflehog googleoauth2'),
  fmt('google-oauth-secret', 'GOCSPX-', atLeast(B64U, 20), 'Google OAuth client secrets; trufflehog gcpoauth'),
  fmt('google-refresh', '1//0', atLeast(B64U, 40), 'Google OAuth refresh tokens; trufflehog googleoauth2'),
  fmt('digitalocean-pat', 'dop_v1_', exact(HEX, 64), 'DigitalOcean docs (token prefixes); gitleaks digitalocean-pat'),
  fmt('digitalocean-oauth', 'doo_v1_', exact(HEX, 64), 'gitleaks digitalocean-access-token'),
  fmt('digitalocean-refresh', 'dor_v1_', exact(HEX, 64), 'gitleaks digitalocean-refresh-token'),
  fmt('databricks', 'dapi', exact(HEX, 32), 'gitleaks databricks-api-token; secretlint databricks'),
  fmt('databricks-oauth', 'dose', exact(HEX, 32), 'Databricks docs (OAuth secrets); secretlint databricks'),
  fmt('alibaba', 'LTAI', `[${AN}]{12,20}(?![${AN}])`, 'Alibaba Cloud docs (AccessKey IDs LTAI + 12-20); gitleaks alibaba-access-key-id'),
  fmt('tencent', 'AKID', atLeast(AN, 32), 'trufflehog tencent'),
  fmt('heroku-new', 'HRKU-', atLeast(B64U, 60), 'Heroku docs (API key format); gitleaks heroku-api-key-v2'),
  fmt('cloudflare-origin-ca', 'v1.0-', atLeast('a-f0-9-', 150), 'gitleaks cloudflare-origin-ca-key'),
  fmt('yandex-api-key', 'AQVN', atLeast(B64U, 35), 'gitleaks yandex-api-key'),
  fmt('yandex-iam', 't1.', atLeast('A-Za-z0-9_.-', 80), 'gitleaks yandex-access-token'),
  fmt('dynatrace', 'dt0c01.', atLeast('A-Z0-9.', 80), 'gitleaks dynatrace-api-token'),
  fmt('newrelic-user', 'NRAK-', exact('A-Z0-9', 27), 'gitleaks new-relic-user-api-key'),
  fmt('newrelic-browser', 'NRJS-', exact(HEX, 19), 'gitleaks new-relic-browser-api-token'),
  fmt('newrelic-insert', 'NRII-', atLeast(B64U, 32), 'gitleaks new-relic-insert-key'),
  fmt('posthog-personal', 'phx_', atLeast(AN, 40), 'PostHog docs (personal API keys)'),
  fmt('honeycomb', 'hcaik_', atLeast(AN, 40), 'Honeycomb docs (ingest keys)'),
  fmt('mapbox-secret', 'sk.eyJ', atLeast('A-Za-z0-9._-', 40), 'gitleaks mapbox-api-token'),
  fmt('dropbox-short-lived', 'sl.', atLeast(B64U, 130), 'gitleaks dropbox-short-lived-api-token'),
  ...['access-production-', 'access-development-', 'access-sandbox-'].map((p) => fmt(`plaid-${p}`, p, UUID,
    'gitleaks plaid-api-token')),
  ...['pat-na1-', 'pat-eu1-'].map((p) => fmt(`hubspot-${p}`, p, UUID, 'HubSpot docs (private app access tokens)')),
  ...['s-s4t2ud-', 's-s4t2af-'].map((p) => fmt(`intra42-${p}`, p, exact(HEX, 64), 'gitleaks intra42-client-secret')),
  ...['api-', 'sdk-'].map((p) => fmt(`launchdarkly-${p}`, p, UUID, 'LaunchDarkly docs (API access tokens, SDK keys)')),
  // Issued tokens run to about 90 characters after the run of `A`s; 21 `A`s are distinctive enough that a shorter body still counts.
  fmt('twitter-bearer', 'AAAAAAAAAAAAAAAAAAAAA', atLeast('A-Za-z0-9%', 30), 'gitleaks twitter-bearer-token'),
  fmt('facebook-square-eaa', 'EAA', atLeast(B64U, 60), 'Meta Graph API access tokens (EAA…); Square access tokens (EAAA + 60); gitleaks facebook-access-token, square-access-token'),
  ...['FwoGZXIvYXdz', 'FQoGZXIvYXdz', 'IQoJb3JpZ2luX2Vj', 'IQoDYXdz'].map((p) => fmt(`aws-session-${p}`, p, atLeast(B64, 100, '={0,2}'),
    'AWS STS session tokens (base64 of the token header); trufflehog aws session keys')),
  fmt('tailscale', 'tskey-', `(?:auth|api|client|webhook|scim)-[${AN}-]{20,${BODY_MAX}}`, 'Tailscale docs (API access tokens, auth keys, OAuth clients)'),
  fmt('age-secret-key', 'AGE-SECRET-KEY-1', exact('0-9A-Z', 58), 'age docs; gitleaks age-secret-key'),
];
