// Access granted: accounts created or raised on this machine, database users and grants (SQL,
// MongoDB, Redis ACLs, message brokers, key-value stores), cloud resources opened to everyone
// (`allUsers`, `0.0.0.0/0`, `public-read`, a principal of `*`), cloud and platform roles, keys and
// members added, and cluster role bindings fed to kubectl. Whoever holds the access can act later,
// without the person: access for everyone, a superuser or an account on this machine is refused;
// access for a named someone asks. Listing who has access changes nothing and stays allowed.
import { ask, deny, type Finding, type SegmentView } from './command-view';

/** Programs that create, raise or remove accounts on this machine. */
const ACCOUNT_TOOLS = /^(adduser|addgroup|deluser|delgroup|luseradd|lusermod|lgroupadd|lgroupmod|lchage|newusers|pw|smbpasswd|pdbedit|groupmod)$/;

/** SQL (and MongoDB, Redis, Cassandra) text that creates an account or grants rights. */
const GRANT_TEXT = /\bGRANT\s[\s\S]*?\bTO\b|\bCREATE\s+(USER|ROLE|LOGIN)\b|\bALTER\s+(USER|ROLE|LOGIN)\b[^;]*\b(SUPERUSER|CREATEROLE|CREATEDB|BYPASSRLS|REPLICATION|LOGIN|PASSWORD|WITH\s+GRANT)\b|\bALTER\s+SERVER\s+ROLE\b[^;]*\bADD\s+MEMBER\b|\bsp_(addsrvrolemember|addrolemember|addlogin|grantlogin|grantdbaccess)\b|(?<=\.)(createUser|grantRolesToUser|updateUser|createRole|grantPrivilegesToRole)\s*\(|\bACL\s+SETUSER\b|\bCONFIG\s+SET\s+(requirepass|masterauth|dir|dbfilename)\b|\b(UPDATE|INSERT\s+INTO|REPLACE\s+INTO)\s+[`"]?mysql[`"]?\.[`"]?(user|db|global_grants)\b/i;
/** The same, at a level that owns everything: superusers, every privilege everywhere, anyone. */
const SUPER_GRANT = /\bSUPERUSER\b|\bALL\s+PRIVILEGES\s+ON\s+\*\.\*|\bWITH\s+GRANT\s+OPTION\b|\bTO\s+PUBLIC\b|\bsysadmin\b|\broles\s*:\s*\[[^\]]*["'](root|__system|userAdminAnyDatabase|dbAdminAnyDatabase|clusterAdmin)["']|\+@all\b|\bCONFIG\s+SET\s+(dir|dbfilename)\b|'%'|\bALL\s+PERMISSIONS\s+ON\s+ALL\s+KEYSPACES\b|\bmysql[`"]?\.[`"]?user\b/i;

/** The verdict on database text that grants access, for a client's `-c`/`-e`/`--eval` and for what is fed to it. */
export function grantInText(name: string, text: string): Finding | undefined {
  if (!GRANT_TEXT.test(text)) return undefined;
  return SUPER_GRANT.test(text)
    ? deny('privilege_escalation', `${name} creates a superuser, grants every privilege or grants to everyone`)
    : ask('privilege_escalation', `${name} creates a database account or grants rights`);
}

/** An argument that names everyone as the one who gets access. */
const EVERYONE = /^(allUsers|allAuthenticatedUsers|AllUsers|AllAuthenticatedUsers|Everyone|0\.0\.0\.0\/0|::\/0|\*|public-read|public-read-write|authenticated-read|Internet|Any)(:\w+)?$|^(allUsers|AllUsers|allAuthenticatedUsers):|member=allUsers|member=allAuthenticatedUsers|^--(source-ranges|cidr|cidr-ip|source-address-prefix(es)?|principal|grantee)=(0\.0\.0\.0\/0|::\/0|\*|Internet)$|CidrIp=0\.0\.0\.0\/0|^(blob|container)$/;
/** Cloud CLI verbs that change who may reach or act on a resource. */
const ACCESS_VERB = /^(put-bucket-acl|put-object-acl|put-bucket-policy|put-public-access-block|delete-public-access-block|delete-bucket-policy|authorize-security-group-(ingress|egress)|create-grant|add-permission|put-resource-policy|put-key-policy|modify-(image|snapshot|db-snapshot|db-cluster-snapshot)-attribute|create-policy-version|set-default-policy-version|create-login-profile|associate-iam-instance-profile|add-role-to-instance-profile|add-iam-policy-binding|set-iam-policy|set-permission|set-policy|create-for-rbac|firewall-rules|set-acl|update-permissions|share|invite-account-to-organization|create-account-assignment|(create|associate|accept)-resource-share[\w-]*|attach-[\w-]*-to-permission-set|put-role-policy|put-user-policy|put-group-policy)$/;

/**
 * Cloud and platform grants: a resource opened to everyone, an identity or key created, a role,
 * member, collaborator or access policy added. What `remoteRules` already calls an IAM change is not
 * repeated here.
 */
/** Clouds whose access verbs cloudGrant reads, and the platforms of its `case`s (grantConcerns). */
const CLOUD_GRANTERS = /^(aws|gcloud|gsutil|az|doctl|oci|ibmcloud)$/;
const PLATFORM_GRANTERS = /^(gh|glab|heroku|vercel|netlify|fly|flyctl|railway|render|supabase|firebase|doppler|oc|vault|bao|consul|nomad|rabbitmqctl|influx|etcdctl|htpasswd)$/;

function cloudGrant(v: SegmentView): Finding[] {
  const { name, args } = v;
  const w = v.operands;
  if (CLOUD_GRANTERS.test(name)) {
    const changes = w.some((x) => ACCESS_VERB.test(x)) || /^(gsutil)$/.test(name) && /^(iam|acl|defacl)$/.test(w[0] ?? '') && /^(ch|set)$/.test(w[1] ?? '')
      || name === 'az' && (w[0] === 'ad' && /^(user|sp|app|group)$/.test(w[1] ?? '') && w.some((x) => /^(create|create-for-rbac|reset|add)$/.test(x)) || w.includes('set-policy') || w.includes('set-permission') || w[0] === 'network' && w.includes('rule') && w.includes('create'))
      || name === 'gcloud' && (w.includes('keys') && w.includes('create') || w.includes('firewall-rules') && /^(create|update)$/.test(w[w.indexOf('firewall-rules') + 1] ?? ''));
    // `--allow-blob-public-access true`, `--public-network-access Enabled`: a switch that opens the resource to the internet.
    const opens = args.some((a, i) => /^--(allow-blob-public-access|public-network-access|allow-shared-key-access|enable-public-ip|allow-unauthenticated)(=(true|enabled))?$/i.test(a) && (/=/.test(a) || /^(true|enabled)$/i.test(args[i + 1] ?? '') || a === '--allow-unauthenticated'));
    if (opens && w.some((x) => /^(create|update|deploy|set)$/.test(x))) return [deny('persistence', `${name} opens a resource to the internet`)];
    if (changes && args.some((a) => EVERYONE.test(a) || EVERYONE.test(a.replace(/^--[\w-]+=/, '')))) return [deny('persistence', `${name} opens a resource to everyone (public access, any address or any principal)`)];
    if (changes) return [ask('persistence', `${name} ${w.find((x) => ACCESS_VERB.test(x)) ?? w.slice(0, 3).join(' ')} changes who may reach or act on a cloud resource`)];
    return [];
  }
  switch (name) {
    case 'gh': case 'glab':
      if (w[0] === 'repo' && w[1] === 'edit' && args.some((a) => /^--visibility(=public)?$/.test(a)) && args.some((a) => /public/.test(a))) return [deny('data_exfiltration', `${name} repo edit --visibility public publishes a private repository`)];
      if (w[0] === 'api' && args.some((a) => /^(archived=true|private=false|visibility=public)$/.test(a) || /\bmutation\b[\s\S]*\b(delete|remove|archive|transfer)[A-Z]\w*\s*\(/.test(a))) return [deny('remote_destruction', `${name} api archives a repository or makes it public`)];
      if (/^(secret|variable)$/.test(w[0] ?? '') && /^(set|delete|remove)$/.test(w[1] ?? '')) return [ask('persistence', `${name} ${w[0]} ${w[1]} changes what the repository's workflows receive`)];
      if (w[0] === 'api' && /(^|\/)(memberships|teams\/[^/]+\/(repos|memberships)|permissions|members|invitations|protection|rulesets)(\/|$)/.test(w.find((x) => x.includes('/')) ?? '') && args.some((a) => /^(-X|--method|-f|-F|--field|--raw-field|--input)$|^--method=/.test(a)) && !args.some((a) => /^GET$/i.test(a)))
        return [deny('persistence', `${name} api changes who belongs to, or what protects, an organisation or repository`)];
      return [];
    case 'heroku': return w.some((x) => /^(access:add|access:update|members:add|members:set|sharing:add|keys:add|authorizations:create|pg:credentials:create)$/.test(x)) ? [ask('persistence', `heroku ${w[0]} gives someone access to an app or the account`)] : [];
    case 'vercel': case 'netlify': case 'fly': case 'flyctl': case 'railway': case 'render': case 'supabase': case 'firebase': case 'doppler':
      if (/^secrets?$/.test(w[0] ?? '') && /^(set|unset|import|rm|remove)$/.test(w[1] ?? '')) return [ask('persistence', `${name} ${w[0]} ${w[1]} changes the secrets a deployed app receives`)];
      return w.some((x) => /^(invite|members?:add|teams?|access|auth:import|tokens?:create|orgs:invite)$/.test(x)) && w.some((x) => /^(invite|add|create|auth:import|members?:add|orgs:invite|tokens?:create)$/.test(x)) ? [ask('persistence', `${name} ${w.slice(0, 2).join(' ')} gives someone access to the project or its users`)] : [];
    case 'oc': return w[0] === 'adm' && w[1] === 'policy' && /^add-(cluster-)?(role|scc)-to-(user|group)$/.test(w[2] ?? '') ? [/cluster-admin|privileged|anyuid|hostaccess|system:masters/.test(args.join(' ')) ? deny('privilege_escalation', `oc adm policy ${w[2]} hands out cluster-admin or a privileged security context`) : ask('privilege_escalation', `oc adm policy ${w[2]} gives someone a role`)] : [];
    case 'vault': case 'bao':
      if (w[0] === 'policy' && /^(write|put)$/.test(w[1] ?? '') || w[0] === 'write' && /^(auth\/|sys\/(policy|policies|auth|mounts))/.test(w[1] ?? '') || w[0] === 'auth' && w[1] === 'enable') return [ask('persistence', `${name} ${w.slice(0, 2).join(' ')} changes who may read secrets`)];
      return [];
    case 'consul': case 'nomad': return w[0] === 'acl' && /^(token|policy|role|binding-rule)$/.test(w[1] ?? '') && /^(create|update)$/.test(w[2] ?? '') ? [ask('persistence', `${name} acl ${w[1]} ${w[2]} hands out access`)] : [];
    case 'rabbitmqctl': return /^(add_user|set_user_tags|set_permissions|set_topic_permissions|change_password|set_global_parameter)$/.test(w[0] ?? '') ? [w.includes('administrator') ? deny('privilege_escalation', 'rabbitmqctl makes a broker administrator') : ask('privilege_escalation', `rabbitmqctl ${w[0]} creates an account or changes its rights`)] : [];
    case 'influx': return /^(user|auth|v1)$/.test(w[0] ?? '') && w.some((x) => /^(create|add|update|password|set-password)$/.test(x)) ? [ask('privilege_escalation', `influx ${w[0]} creates an account or a token`)] : [];
    case 'etcdctl': return /^(user|role)$/.test(w[0] ?? '') && /^(add|grant-role|grant-permission|passwd)$/.test(w[1] ?? '') || w[0] === 'auth' && w[1] === 'disable' ? [ask('privilege_escalation', `etcdctl ${w[0]} ${w[1]} changes who may read or write the store`)] : [];
    case 'htpasswd': return args.some((a) => /^\/etc\//.test(a)) ? [deny('privilege_escalation', 'htpasswd adds a login to a web server\'s password file')] : [];
  }
  return [];
}

/** Role bindings (cluster-wide or not) fed to kubectl on stdin: who gets the role is in the text. */
function fedBinding(v: SegmentView): Finding[] {
  if (!/^(kubectl|oc|kubecolor)$/.test(v.name) || !/^(apply|create|replace)$/.test(v.args.find((a) => !a.startsWith('-')) ?? '')) return [];
  const fed = [...v.seg.heredocs, ...v.seg.redirects.filter((r) => r.op === '<<<').map((r) => r.target.text)].join('\n');
  if (!/kind:\s*(Cluster)?RoleBinding|kind:\s*ClusterRole\b/.test(fed)) return [];
  return [/cluster-admin|system:masters|verbs:\s*\[\s*["']?\*/.test(fed) ? deny('privilege_escalation', `${v.name} binds cluster-admin or every verb to someone`) : ask('privilege_escalation', `${v.name} binds a role to someone`)];
}

/** Every program grantRules can object to: each of its checks names the program. */
export const grantConcerns = (name: string): boolean => ACCOUNT_TOOLS.test(name) || /^(redis-cli|valkey-cli|keydb-cli|kubectl|kubecolor)$/.test(name) || CLOUD_GRANTERS.test(name) || PLATFORM_GRANTERS.test(name);

export function grantRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const f: Finding[] = [];
  if (ACCOUNT_TOOLS.test(name) && args.some((a) => !a.startsWith('-') || /^-[aod]$/.test(a)) && !(name === 'pw' && !/^(user|group)(add|mod|del)$/.test(args[0] ?? '')))
    f.push(deny('privilege_escalation', `${name} creates, changes or removes an account on this machine`));
  // `redis-cli ACL SETUSER …`, `redis-cli CONFIG SET dir /root/.ssh`: the command is the arguments.
  if (/^(redis-cli|valkey-cli|keydb-cli)$/.test(name)) { const g = grantInText(name, args.join(' ')); if (g) f.push(g); }
  f.push(...cloudGrant(v), ...fedBinding(v));
  return f;
}
