// Trust widened by one command, where whoever holds it acts later without the person: a login
// token given more scopes, a certificate request or an image signer approved, a root certificate
// added (every TLS connection can then be read), this machine joined to an overlay network, remote
// shells switched on or opened as someone else, a program started as another account. Each asks:
// a person may mean it, and the command says nothing about who gains.
import { ask, deny, type Finding, type SegmentView, before } from './command-view';

const operands = (args: readonly string[]) => args.filter((a) => !a.startsWith('-') && !a.startsWith('/'));

/** `gh auth refresh -s delete_repo,admin:org`, `gh auth login --scopes …`: the stored token may do more. */
function scopes(v: SegmentView): Finding[] {
  if (v.name !== 'gh' || v.args[0] !== 'auth' || !/^(refresh|login)$/.test(v.args[1] ?? '')) return [];
  const s = v.args.find((a, i) => /^(-s|--scopes)$/.test(before(v.args, i) ?? '')) ?? v.args.find((a) => a.startsWith('--scopes='))?.slice(9);
  return s ? [ask('privilege_escalation', `gh auth ${v.args[1]} gives the stored token the scopes ${s}`)] : [];
}

/** A root certificate into a trust store: certutil, macOS security, Java's keytool, NSS certutil, trust anchor. */
function rootCertificate(v: SegmentView): Finding[] {
  const lower = v.args.map((a) => a.toLowerCase());
  const root = v.name === 'certutil' && lower.some((a) => /^[-/]addstore$/.test(a)) && lower.some((a) => /^(root|authroot|trustedpublisher|ca)$/.test(a))
    || v.name === 'security' && /^add-trusted-cert$/.test(v.args[0] ?? '')
    || v.name === 'keytool' && lower.some((a) => /^-(importcert|import)$/.test(a)) && lower.some((a) => a === '-cacerts' || /cacerts$/.test(a))
    || v.name === 'trust' && v.args[0] === 'anchor'
    || /^(import-certificate)$/.test(v.name) && lower.some((a) => /cert:\\?\\?(localmachine|currentuser)\\?\\?root/.test(a.replace(/\\/g, '')) || /root$/.test(a));
  return root ? [deny('data_exfiltration', `${v.name} adds a root certificate: whoever holds its key can read and change every TLS connection`)] : [];
}

/** Overlay networks and remote shells: the machine joined to someone's network, remoting switched on, a session opened with other credentials. */
function remoteAccess(v: SegmentView): Finding[] {
  const w = operands(v.args);
  if (/^(zerotier-cli|zerotier)$/.test(v.name) && w[0] === 'join' || v.name === 'netbird' && w[0] === 'up' && v.args.some((a) => /^--(setup-key|management-url)/.test(a)) || v.name === 'nebula' && v.args.includes('-config'))
    return [ask('network_recon', `${v.name} joins this machine to an overlay network whose members can reach it`)];
  if (/^(enable-psremoting|enable-wsmancredssp)$/.test(v.name)) return [ask('persistence', `${v.name} lets other machines run commands here`)];
  if (/^(set-item|set-wsmaninstance)$/.test(v.name) && v.args.some((a) => /trustedhosts/i.test(a))) return [ask('persistence', `${v.name} changes which hosts remote PowerShell trusts`)];
  if (/^(enter-pssession|new-pssession|invoke-command)$/.test(v.name) && v.args.some((a) => /^-(computername|hostname|session|credential)$/i.test(a))) return [ask('privilege_escalation', `${v.name} opens a shell on another machine`)];
  return [];
}

/** `kubectl certificate approve`, `docker trust signer add`: a request or a signer accepted for everyone who trusts the cluster or the repository. */
function approvals(v: SegmentView): Finding[] {
  const w = operands(v.args);
  if (/^(kubectl|oc)$/.test(v.name) && w[0] === 'certificate' && w[1] === 'approve') return [ask('privilege_escalation', `${v.name} certificate approve issues a cluster certificate to whoever made the request`)];
  if (/^(oc)$/.test(v.name) && w[0] === 'adm' && w[1] === 'certificate' && w[2] === 'approve') return [ask('privilege_escalation', 'oc adm certificate approve issues a cluster certificate')];
  if (/^(docker|notary)$/.test(v.name) && (w[0] === 'trust' && /^(signer|key)$/.test(w[1] ?? '') && /^(add|load)$/.test(w[2] ?? '') || v.name === 'notary' && w[0] === 'delegation' && w[1] === 'add'))
    return [ask('privilege_escalation', `${v.name} ${w.slice(0, 3).join(' ')} lets another key sign images that others trust`)];
  return [];
}

/** `runas /user:Administrator cmd`: a program started as another account. */
function otherAccount(v: SegmentView): Finding[] {
  return v.name === 'runas' && v.args.some((a) => /^\/(user|u):/i.test(a)) ? [ask('privilege_escalation', `runas starts a program as ${v.args.find((a) => /^\/(user|u):/i.test(a))?.replace(/^\/\w+:/, '')}`)] : [];
}

const NAMES = /^(gh|certutil|security|keytool|trust|import-certificate|zerotier-cli|zerotier|netbird|nebula|enable-psremoting|enable-wsmancredssp|set-item|set-wsmaninstance|enter-pssession|new-pssession|invoke-command|kubectl|oc|docker|notary|runas)$/;

export function trustConcerns(name: string): boolean {
  return NAMES.test(name);
}

export function trustRules(v: SegmentView): Finding[] {
  switch (v.name) {
    case 'gh': return scopes(v);
    case 'runas': return otherAccount(v);
    case 'kubectl': case 'oc': case 'docker': case 'notary': return approvals(v);
    case 'certutil': case 'security': case 'keytool': case 'trust': case 'import-certificate': return rootCertificate(v);
    default: return remoteAccess(v);
  }
}
