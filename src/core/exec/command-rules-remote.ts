// Remote resources destroyed: cloud resources, infrastructure stacks, cluster objects, databases and
// published packages. None of it is undone by a revert in the workspace, so the group
// remote_destruction states a deny and its default action turns that into a question (a person may
// well mean it). Reading, listing and planning stay allowed.
import { AWS, CURL, GH_API, KUBECTL, TERRAFORM, WGET } from './command-option-tables';
import { hasFlag, hasLong, parseOptions, valuesOf } from './command-options';
import { grantInText } from './command-rules-grants';
import { SECRET_PATH } from './command-rules-tools';
import { ask, deny, type Finding, type SegmentView, before } from './command-view';
import { startsWith } from './command-strings';

const gone = (what: string): Finding[] => [deny('remote_destruction', what)];

/** Operands (words that are not options), in order. Good enough for CLIs of the `tool noun verb` kind. */
function words(args: readonly string[]): string[] {
  return args.filter((a) => !a.startsWith('-'));
}

/** A verb that deletes, in the spellings cloud CLIs use (`delete-bucket`, `terminate-instances`, `rb`). */
const DELETE_VERB = /^(delete|destroy|terminate|purge|remove|rm|rb|drop|deregister|deprovision|uninstall|wipe|erase|nuke|reset|deallocate|down|disable|archive)([-:_].*)?$|^[\w-]+-(delete|destroy|remove|purge)$|^(batch-delete|force-delete|bulk-delete)|^[\w-]+:(delete|destroy|remove|rm|purge|disable)$/i;
/** Verbs that change access or switch off protection: attach/detach policies, bindings, key deletion, audit logging off. */
const IAM_CHANGE = /^((attach|detach|put|add|delete|update)-[\w-]*(polic(y|ies)|iam|role|binding|permission)[\w-]*|add-iam-policy-binding|set-iam-policy|schedule-key-deletion|disable-key|stop-logging|delete-trail|leave-organization|disable-[\w-]+|deactivate-[\w-]+)$/;
/** aws verbs that rewrite a live resource's rules in place: lifecycle expiry, retention, replication, DNS records, batched writes. */
const IN_PLACE = /^(put-[\w-]*(lifecycle|retention|replication|versioning)[\w-]*|change-resource-record-sets|batch-write-item|put-bucket-acl)$/;
/** An API path whose last part is an action that ends something (`stripe post /v1/subscriptions/sub_x/cancel`). */
const ENDING_PATH = /^\/[\w./{}:-]*\/(cancel|delete|destroy|void|close|revoke|purge|terminate|deactivate|expire|permanent-delete|reject)$/i;
const CLOUD = /^(aws|awslocal|az|gcloud|gsutil|doctl|linode-cli|hcloud|oci|ibmcloud|scw|vultr-cli|exo|upcloud|civo|aliyun|tccli|openstack|nova|glance|neutron|swift|heroku|vercel|netlify|fly|flyctl|railway|render|firebase|supabase|wrangler|eksctl|gh|glab|tea|bq|cf|okteto|doppler|vault|consul|nomad|eb|copilot|sam|serverless|sls|amplify|az-cli|databricks|stripe|twilio|snow|confluent|atlas|mongocli|pscale|neonctl|turso|okta|auth0|sentry-cli|algolia|datadog|linode|upstash|cloudflared|ngrok)$/;

/** A data service's option that deletes (dataServiceRule), and a program whose name says it deletes. */
const DELETE_FLAG = /^--(delete|drop|purge|truncate|flush|flush-all|flushall|wipe|destroy|delete-all|remove-all|delete-records|reset-offsets)(=|$)/;
const DELETING_NAME = /(^|[-_.])(delete|drop|purge|flush|truncate|wipe)([-_.]|$)|^memcflush$/;
/** The programs of remoteRules' `case`s. */
const REMOTE_CASES = /^(terraform|tofu|terragrunt|terraform-cdk|cdktf|pulumi|k9s|cdk|kubectl|oc|kubecolor|k|helm|dropdb|dropuser|mongorestore|pg_restore|curl|http|https|xh|wget|wget2|mysqladmin|mariadb-admin|redis-cli|valkey-cli|keydb-cli|psql|mysql|mariadb|sqlcmd|clickhouse-client|clickhouse|cqlsh|mongo|mongosh|cockroach|snowsql|duckdb|sqlite3|trino|presto|usql|pgcli|mycli|litecli|npm|pnpm|yarn|bun|cargo|dotnet|nuget|gem|crane|skopeo|regctl|oras|docker|podman)$/;

/** The programs remoteRules looks at by name (clouds, its `case`s, names that say they delete). */
export const remoteConcerns = (name: string): boolean => CLOUD.test(name) || REMOTE_CASES.test(name) || DELETING_NAME.test(name);

/** What its check without a name (dataServiceRule's deleting option) needs in any other argv. */
export const remoteWhen = (v: SegmentView): boolean => v.args.some((a) => startsWith(a, '--') && DELETE_FLAG.test(a));

export function remoteRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  if (CLOUD.test(name)) return cloudRule(name, args);
  const service = dataServiceRule(name, args);
  if (service.length) return service;
  switch (name) {
    // TF_CLI_ARGS and TF_CLI_ARGS_<command> add their options to every run (`-auto-approve` among them).
    case 'terraform': case 'tofu': case 'terragrunt': case 'terraform-cdk': case 'cdktf':
      return terraformRule(name, [...v.seg.assignments.filter((a) => /^TF_CLI_ARGS(_\w+)?$/.test(a.name)).flatMap((a) => a.value.text.split(/\s+/).filter(Boolean)), ...args]);
    case 'pulumi': {
      const w = words(args);
      if (w[0] === 'destroy' || w[0] === 'down' || (w[0] === 'stack' && w[1] === 'rm') || (w[0] === 'state' && w[1] === 'delete')) return gone(`pulumi ${w.slice(0, 2).join(' ')} deletes the stack's resources`);
      if (/^(up|update|refresh|import|watch)$/.test(w[0] ?? '') && args.some((a) => /^(--yes|--skip-preview|--force)$|^-[a-z]*[yf][a-z]*$/.test(a))) return gone(`pulumi ${w[0]} changes real infrastructure without a preview being reviewed`);
      return [];
    }
    // `k9s -c 'delete pods --all'` runs a kubectl-style command on start.
    case 'k9s': {
      const cmd = args.find((a, i) => /^(-c|--command)$/.test(before(args, i) ?? '')) ?? args.find((a) => a.startsWith('--command='))?.slice(10);
      return cmd ? kubeRule(name, cmd.split(/\s+/).filter(Boolean)) : [];
    }
    case 'cdk': return words(args)[0] === 'destroy' ? gone('cdk destroy deletes the stack') : [];
    case 'kubectl': case 'oc': case 'kubecolor': case 'k': return kubeRule(name, args);
    case 'helm': {
      const w = words(args);
      if (/^(uninstall|delete|del|un)$/.test(w[0] ?? '')) return gone('helm uninstall removes a release from the cluster');
      return [];
    }
    case 'dropdb': case 'dropuser': return gone(`${name} deletes a database or role`);
    case 'mongorestore': case 'pg_restore': return args.some((a) => /^(--drop|--clean|-c)$/.test(a)) ? gone(`${name} drops what exists before restoring`) : [];
    case 'curl': case 'http': case 'https': case 'xh': case 'wget': case 'wget2': {
      // The method option in any spelling the program takes (`--req=DELETE`), and httpie's method word.
      const method = name === 'curl' ? [...args, ...valuesOf(parseOptions(args, CURL), ['request'], 'X')] : name === 'wget' || name === 'wget2' ? [...args, ...valuesOf(parseOptions(args, WGET), ['method'])] : args;
      return method.some((m) => /^DELETE$/i.test(m)) ? gone(`${name} sends an HTTP DELETE, which removes something on the server`) : [];
    }
    case 'mysqladmin': case 'mariadb-admin': return args.some((a) => /^drop$/i.test(a)) ? gone(`${name} drop deletes a database`) : [];
    case 'redis-cli': case 'valkey-cli': case 'keydb-cli': return args.some((a) => /^(flushall|flushdb)$/i.test(a)) || args.some((a, i) => /^debug$/i.test(a) && /^(segfault|crash-and-recover|sleep|reload)$/i.test(args[i + 1] ?? '')) ? gone(`${name} flushes or crashes the whole data store`) : [];
    case 'psql': case 'mysql': case 'mariadb': case 'sqlcmd': case 'clickhouse-client': case 'clickhouse': case 'cqlsh': case 'mongo': case 'mongosh': case 'cockroach': case 'snowsql': case 'duckdb': case 'sqlite3': case 'trino': case 'presto': case 'usql': case 'pgcli': case 'mycli': case 'litecli':
      return sqlRule(name, args, [...v.seg.heredocs, ...v.seg.redirects.filter((r) => r.op === '<<<').map((r) => r.target.text)]);
    case 'npm': case 'pnpm': case 'yarn': case 'bun': {
      const w = words(args);
      if (w[0] === 'unpublish' || (name === 'yarn' && w[0] === 'npm' && w[1] === 'unpublish')) return gone(`${name} unpublish removes a published package`);
      if (/^(owner|dist-tag|team|access|token|org|hook)$/.test(w[0] ?? '') && /^(rm|remove|add|set|grant|revoke|delete|destroy|ls-remote)$/.test(w[1] ?? '') || w[0] === 'deprecate') return gone(`${name} ${w[0]} ${w[1] ?? ''} changes who owns, who may publish or what is published`);
      return [];
    }
    case 'cargo': return words(args)[0] === 'yank' && !args.includes('--undo') || words(args)[0] === 'owner' && args.some((a) => /^--(remove|add)/.test(a)) ? gone(`cargo ${words(args)[0]} withdraws a version or changes who owns a crate`) : [];
    case 'dotnet': case 'nuget': return args.some((a) => /^delete$/i.test(a)) ? gone(`${name} delete removes a published package`) : [];
    case 'gem': return words(args)[0] === 'yank' ? gone('gem yank withdraws a published gem') : [];
    case 'crane': case 'skopeo': case 'regctl': case 'oras': {
      if (args.some((a) => /^(delete|rm)$/.test(a))) return gone(`${name} deletes an image from a registry`);
      // A copy or retag onto a registry reference replaces what everyone pulling that tag gets.
      const w = words(args);
      if (name === 'skopeo' && !(w[w.length - 1] ?? '').startsWith('docker://')) return []; // copied into a local archive or directory
      if (/^(copy|cp|tag|sync|mutate|append|rebase|flatten|mod|edit)$/.test(w[0] ?? '') || /^(image|artifact|manifest|tag)$/.test(w[0] ?? '') && /^(copy|mod|put|tag)$/.test(w[1] ?? '')) return gone(`${name} ${w[0]} overwrites an image or tag in a registry`);
      return [];
    }
    case 'docker': case 'podman': {
      const w = words(args);
      if (w[0] === 'context' && /^(rm|remove)$/.test(w[1] ?? '')) return [];
      if (w[0] === 'buildx' && w[1] === 'imagetools' && w[2] === 'create' && args.some((x) => /^(-t|--tag)(=|$)/.test(x))) return gone(`${name} buildx imagetools create overwrites a tag in a registry`);
      if ((w[0] === 'stack' || w[0] === 'service' || w[0] === 'swarm' || w[0] === 'secret' || w[0] === 'node') && /^(rm|remove|leave)$/.test(w[1] ?? '')) return gone(`${name} ${w[0]} ${w[1]} removes a shared cluster's resources`);
      return [];
    }
  }
  return [];
}

/** Options of message brokers, caches and search services that name the server they act on. */
const SERVICE_ENDPOINT = /^--?(bootstrap-server|bootstrap-servers|broker-list|brokers?|zookeeper|servers?|host|hosts|url|uri|endpoint|cluster|b|h)(=|$)/;

/**
 * Brokers, caches and search services told to delete with an option rather than a verb
 * (`kafka-topics --delete --topic t`, `kafka-delete-records`, `memcflush --servers=…`): the data
 * lives on the server the options name.
 */
function dataServiceRule(name: string, args: string[]): Finding[] {
  const flag = args.find((a) => DELETE_FLAG.test(a));
  if (flag && args.some((a) => SERVICE_ENDPOINT.test(a)) && !/^(rsync|rclone|git|aws|gsutil|docker|kubectl|helm)$/.test(name)) return gone(`${name} ${flag} deletes data on the server it names`);
  if (DELETING_NAME.test(name) && args.some((a) => SERVICE_ENDPOINT.test(a))) return gone(`${name} deletes or flushes data on the server it names`);
  return [];
}

function cloudRule(name: string, args: string[]): Finding[] {
  const w = words(args);
  if (name === 'aws' || name === 'awslocal') {
    const o = parseOptions(args, AWS);
    const [svc, verb] = o.operands;
    if (svc === 's3' && verb === 'rm') return gone(`aws s3 rm${args.includes('--recursive') ? ' --recursive' : ''} deletes objects from a bucket`);
    if (svc === 's3' && verb === 'rb') return gone('aws s3 rb deletes a bucket');
    if (svc === 's3' && verb === 'sync' && args.includes('--delete')) return gone('aws s3 sync --delete deletes objects that are not in the source');
    if (verb && (DELETE_VERB.test(verb) || IAM_CHANGE.test(verb))) return gone(`aws ${svc} ${verb} deletes a cloud resource or changes who may act`);
    // What a resource keeps (lifecycle expiry, retention) or where a name points, replaced wholesale; a batch of writes from a file may be deletions.
    if (verb && IN_PLACE.test(verb)) return gone(`aws ${svc} ${verb} replaces what a resource keeps or where its name points, from text the judge cannot review`);
    return [];
  }
  if (name === 'gsutil') return /^(rm|rb)$/.test(w[0] ?? '') || (w[0] === 'rsync' && args.includes('-d')) ? gone(`gsutil ${w[0]} deletes storage objects or buckets`) : [];
  if (name === 'gh' || name === 'glab' || name === 'tea') {
    if (/^(repo|release|gist|secret|variable|label|project|cache|run|ssh-key|gpg-key|environment|ruleset|deploy-key|workflow)$/.test(w[0] ?? '') && /^(delete|rm|remove|archive|disable|rename|transfer)$/.test(w[1] ?? '')) return gone(`${name} ${w[0]} ${w[1]} deletes it on the server`);
    if (w[0] === 'api' && valuesOf(parseOptions(args, GH_API), ['method'], 'X').some((m) => /^DELETE$/i.test(m))) return gone(`${name} api -X DELETE deletes a remote resource`);
    return [];
  }
  if (name === 'heroku') return w.some((x) => /^(apps:destroy|destroy|pg:reset|addons:destroy|pg:killall)$/.test(x)) ? gone('heroku deletes an app, an add-on or a database') : [];
  if (name === 'bq') return /^(rm|remove)$/.test(w[0] ?? '') || args.some((a) => DESTRUCTIVE_SQL.test(a)) ? gone('bq deletes a dataset or table') : [];
  if (name === 'vault' || name === 'consul' || name === 'nomad') return w.some((x) => /^(delete|destroy|purge|stop|disable|revoke|revoke-prefix|seal|step-down)$/.test(x)) && !/^(status|version)$/.test(w[0] ?? '') ? gone(`${name} deletes secrets, keys or jobs`) : [];
  // az group delete, gcloud compute instances delete, doctl compute droplet delete, fly apps destroy …
  const verb = w.find((x, i) => i > 0 && (DELETE_VERB.test(x) || IAM_CHANGE.test(x))) ?? (DELETE_VERB.test(w[0] ?? '') ? w[0] : undefined)
    ?? (w.some((x) => /^(role|iam|policy|assignment|binding|owner|permissions?)$/.test(x)) && w.some((x) => /^(create|add|set|grant|update)$/.test(x)) ? 'grant' : undefined);
  if (verb) return gone(`${name} ${verb} deletes a cloud resource`);
  const ending = w.find((x) => ENDING_PATH.test(x));
  if (ending) return gone(`${name} calls ${ending}, which ends or deletes a remote resource`);
  return [];
}

function terraformRule(name: string, args: string[]): Finding[] {
  const o = parseOptions(args.map((a) => a.replace(/^-(?=[a-z])(?!-)/, '--')), TERRAFORM);
  const [cmd, sub] = o.operands;
  const auto = hasFlag(o, '', ['auto-approve', 'destroy']);
  if (cmd === 'destroy' || (name === 'terragrunt' && /^(destroy|run-all)$/.test(cmd ?? '') && args.includes('destroy'))) return gone(`${name} destroy deletes every resource of the configuration`);
  if (cmd === 'apply' && auto) return gone(`${name} apply ${hasLong(o, 'destroy') ? '-destroy' : '-auto-approve'} changes or deletes real infrastructure without a plan being reviewed`);
  if (cmd === 'state' && /^(rm|push|replace-provider)$/.test(sub ?? '')) return gone(`${name} state ${sub} rewrites what the state tracks`);
  if (cmd === 'workspace' && sub === 'delete') return gone(`${name} workspace delete drops a workspace's state`);
  if (cmd === 'force-unlock') return gone(`${name} force-unlock breaks another run's lock`);
  return [];
}

function kubeRule(name: string, args: string[]): Finding[] {
  const o = parseOptions(args, KUBECTL);
  const [verb, kind] = o.operands;
  if (verb === 'delete' || verb === 'drain' || verb === 'cordon') return gone(`${name} ${verb} removes or evicts cluster resources`);
  // Live objects changed in place, with no file in the workspace to review or revert.
  if (/^(patch|edit|set|taint|replace)$/.test(verb ?? '') || verb === 'rollout' && kind === 'undo' || /^(label|annotate)$/.test(verb ?? '') && hasLong(o, 'overwrite')) return gone(`${name} ${verb} changes live cluster resources in place`);
  if (verb === 'replace' && hasLong(o, 'force')) return gone(`${name} replace --force deletes and recreates resources`);
  if (verb === 'scale' && valuesOf(o, ['replicas']).includes('0')) return gone(`${name} scale --replicas=0 stops a workload`);
  if (verb === 'apply' && hasLong(o, 'prune')) return gone(`${name} apply --prune deletes resources missing from the files`);
  if (verb === 'config' && /^(delete-context|delete-cluster|delete-user|unset)$/.test(kind ?? '')) return [];
  return [];
}

/** SQL handed to a client on the command line: DROP, TRUNCATE, or DELETE/UPDATE without a WHERE. */
export const DESTRUCTIVE_SQL = /\b(DROP\s+(TABLE|DATABASE|SCHEMA|INDEX|VIEW|USER|ROLE|COLLECTION|KEYSPACE|OWNED)|TRUNCATE\b|DELETE\s+FROM\s+[\w."`[\]]+\s*(;|$|WHERE\s+(1\s*=\s*1|true|1)\s*(;|$))|ALTER\s+(USER|ROLE)\b[^;]*\bPASSWORD\b|ALTER\s+TABLE\s+\S+\s+DROP\b|dropDatabase\s*\(|(?<=\.)drop\s*\(|deleteMany\s*\(\s*\{\s*\}\s*\)|(?<=\.)remove\s*\(\s*\{\s*\}\s*\)|dropDatabase\s*:|shutdownServer\s*\(|FLUSHALL|FLUSHDB)/i;

/**
 * SQL a client is handed: in an option (`-c`, `-e`, `-q`, `--query`, each client's own spelling),
 * as an operand, or on stdin from the command line itself (here-string, heredoc). The tests below
 * match SQL syntax only, so every argument is read as SQL rather than a list of each client's flags.
 */
function sqlRule(name: string, args: string[], stdin: string[]): Finding[] {
  const sql = [...args, ...stdin];
  if (sql.some((q) => /\bTO\s+PROGRAM\b|\bxp_cmdshell\b/i.test(q))) return [deny('code_injection', `${name} runs SQL that hands text to a shell on the server (COPY … TO PROGRAM, xp_cmdshell)`)];
  if (sql.some((q) => DESTRUCTIVE_SQL.test(q))) return gone(`${name} runs SQL that drops, truncates or empties data`);
  const grant = sql.map((q) => grantInText(name, q)).find((g) => g);
  if (grant) return [grant];
  return sql.flatMap((q) => sqlFileRule(name, q));
}

/** SQL that reads or writes a file by path: `INTO OUTFILE`, `COPY … TO`, `read_text(…)`, `pg_read_file(…)`, `LOAD DATA INFILE`. */
const SQL_FILE = /\b(INTO\s+(?:OUT|DUMP)FILE|COPY\b[^;]*?\bTO|lo_export\s*\([^,]*,|read_(?:text|blob|csv\w*|json\w*|parquet)\s*\(|pg_read_(?:binary_)?file\s*\(|LOAD_FILE\s*\(|lo_import\s*\(|LOAD\s+DATA\s+(?:LOCAL\s+)?INFILE|ATTACH(?:\s+DATABASE)?)\s*'([^']+)'/gi;

function sqlFileRule(name: string, sql: string): Finding[] {
  for (const m of sql.matchAll(SQL_FILE)) {
    const [, how, file] = m;
    if (!/^(\/|~|[A-Za-z]:[\\/]|\.\.)/.test(file)) continue;
    const writes = /^(INTO|COPY|lo_export)/i.test(how);
    if (!writes && (SECRET_PATH.test(file) || /^\/(etc|root|proc)\//.test(file))) return [deny('data_exfiltration', `${name} runs SQL that reads a system or credential file (${file})`)];
    if (writes && /(\.(bashrc|profile|zshrc|bash_profile)$|authorized_keys|\/etc\/|\/(www|htdocs|public_html|srv)\/|\.(php|jsp|aspx?)$|LaunchAgents|autostart|cron)/i.test(file)) return [deny('persistence', `${name} runs SQL that writes a start-up file, a system file or a page a web server runs (${file})`)];
    return [ask(writes ? 'write' : 'data_exfiltration', `${name} runs SQL that ${writes ? 'writes' : 'reads'} a file outside the workspace (${file})`)];
  }
  return [];
}
