// Clusters, infrastructure and the machine's own state, by what a command means rather than by its
// verb alone: a playbook, template or manifest whose name says it tears something down; a change
// applied with the review switched off (`-auto-approve`, `-force`, `-e confirm=yes`); a manifest
// fetched from a host outside the default allowlist; a pod or container spec in an argument that
// asks for the host's processes, network or root; an uninstaller or teardown script run by name;
// a project's volumes deleted with it; a published package's tag removed; the clock set; a
// package-signing key trusted; a CI system's secrets or variables listed. Findings for remote
// resources are remote_destruction (asks by default); the host's namespaces are container_escape.
import { ask, deny, type Finding, type SegmentView, before } from './command-view';
import { isAllowedHost } from './command-rules-unknown';
import { EDITOR, KUBECTL } from './command-option-tables';
import { hasLong, parseOptions, valuesOf } from './command-options';

const INFRA = /^(ansible|ansible-playbook|packer|terraform|tofu|terragrunt|pulumi|cdk|cdktf|helm|helmfile|kubectl|oc|kustomize|serverless|sls|sam|eksctl|kops|k3sup|skaffold|nomad|vagrant)$/;
const CONTAINERS = /^(docker|podman|nerdctl|ctr|crictl|docker-compose|finch|lima|kubectl|oc)$/;
/** A file name that says what running it does: destroy, tear down, wipe … */
const DESTROYING_NAME = /(^|[/_.-])(teardown|tear-down|destroy|decommission|deprovision|nuke|wipe|purge|uninstall|drop|reset|delete|remove|cleanup-all|wipeout)([/_.-]|$)/i;
/** Switches that skip the question a tool would otherwise ask before changing remote resources. */
const NO_REVIEW = /^(-auto-approve|--auto-approve|-force|--force|--yes|-y|--terragrunt-non-interactive|--non-interactive|--skip-preview|--require-approval=never|--no-confirm|--approve)$/;
/** Program names that say they uninstall, tear down or kill everything (`k3s-uninstall.sh`, `teardown.sh`). */
const DESTROYING_PROGRAM = /(^|[_.-])(uninstall|teardown|destroy|nuke|wipe|killall|purge|decommission)([_.-]|$)/;
const CI_SECRETS = /^(gh|glab|tea|circleci|travis|buildkite-agent|vercel|netlify|fly|flyctl|railway|doppler|render)$/;
const NAMES = /^(date|timedatectl|hwclock|apt-key|code|code-insiders|cursor|codium|npm|pnpm|yarn)$/;
const PROBES = /^(ping|ping6|fping|arping|nc|ncat|netcat|curl|wget|host|dig|nslookup|ssh|telnet|nmap|traceroute)$/;

/** Names infraRules may object to (the dispatch contract in command-dispatch.ts). */
export function infraConcerns(name: string): boolean {
  return INFRA.test(name) || CONTAINERS.test(name) || CI_SECRETS.test(name) || NAMES.test(name) || PROBES.test(name) || DESTROYING_PROGRAM.test(name);
}

export function infraRules(v: SegmentView): Finding[] {
  const { name, args } = v;
  const f: Finding[] = [];
  const operands = args.filter((a) => !a.startsWith('-'));
  if (DESTROYING_PROGRAM.test(name) && /[_.-]/.test(name)) f.push(ask('destructive_ops', `${name} is named as a program that uninstalls, tears down or kills what it manages`));
  if (INFRA.test(name)) {
    const runFile = operands.slice(1).concat(args.flatMap((a, i) => (/^(-f|--filename|-var-file|--values|-i)$/.test(before(args, i) ?? '') ? [a] : []))).find((a) => /\.(ya?ml|json|hcl|pkr\.hcl|tf|tfvars|jsonnet)$/.test(a) && DESTROYING_NAME.test(a.split('/').pop() ?? ''));
    if (runFile) f.push(ask('remote_destruction', `${name} runs ${runFile}, whose name says it destroys or tears something down`));
    const confirm = args.some((a, i) => NO_REVIEW.test(a) || /^(-e|--extra-vars)$/.test(before(args, i) ?? '') && /(confirm|force|approve|yes)\w*\s*[=:]\s*(yes|true|1)/i.test(a));
    if (confirm && operands.some((w) => /^(apply|up|deploy|build|destroy|run-all|run|sync|upgrade|install|import|refresh|rollout|replace)$/.test(w) || name === 'ansible-playbook' || name === 'ansible'))
      f.push(ask('remote_destruction', `${name} changes remote resources with its review switched off`));
    // kubectl's in any spelling of the option (`--fil=URL`); other programs' by the words themselves.
    const given = name === 'kubectl' || name === 'oc' ? valuesOf(parseOptions(args, KUBECTL), ['filename', 'kustomize'], 'fk') : args.flatMap((a, i) => (/^(-f|--filename|-k|--kustomize)$/.test(before(args, i) ?? '') ? [a] : /^--filename=/.test(a) ? [a.slice(11)] : []));
    const manifest = given.find((a) => /^[a-z]+:\/\//i.test(a));
    if (manifest && !isAllowedHost(manifest)) f.push(ask('code_injection', `${name} applies a manifest fetched from another host (${manifest})`));
  }
  if (CONTAINERS.test(name)) {
    const spec = args.find((a) => /["']?(hostPID|hostNetwork|hostIPC|privileged|allowPrivilegeEscalation)["']?\s*:\s*true|["']?hostPath["']?\s*:|SYS_ADMIN/.test(a));
    if (spec) f.push(deny('container_escape', `${name} is given a pod or container spec that reaches the host (host processes, network, paths or privileges)`));
    if (/^(ctr|crictl)$/.test(name) && (args.includes('--privileged') || args.some((a) => /(^|,)(src|source)=\/(,|$)/.test(a)))) f.push(deny('container_escape', `${name} runs a container with host privileges or the host's root mounted`));
    const compose = name === 'docker-compose' ? operands : operands[0] === 'compose' ? operands.slice(1) : [];
    if (compose[0] === 'down' && args.some((a) => /^(-v|--volumes|--rmi)$/.test(a))) f.push(ask('destructive_ops', `${name} compose down deletes the project's volumes (its databases) or images`));
    // `get secrets` lists names only; `describe` shows each secret's keys and sizes (the values are `get -o yaml`, refused elsewhere).
    if (operands[0] === 'describe' && /^(secrets?|sealedsecrets?)(\/|$)/.test(operands[1] ?? '')) f.push(ask('data_exfiltration', `${name} describe shows what the cluster's secrets hold`));
    // A pod's or container's description filtered down to its environment (`… -o json | jq '.spec.containers[].env'`).
    const filter = [...args, ...(v.pipedTo && /^(jq|yq|gojq|jaq)$/.test(v.pipedTo.name) ? v.pipedTo.args : [])];
    if (/^(get|inspect|describe)$/.test(operands[0] ?? '') && filter.some((a) => /(\.|\{)\.?(env|Env|environment)\b|\.Config\.Env\b|\.\.env\b/.test(a))) f.push(ask('env_dump', `${name} ${operands[0]} is filtered to a workload's environment variables`));
  }
  if (CI_SECRETS.test(name) && operands.some((w) => /^(secrets?|variables?|vars?|env|envs|environment)$/.test(w)) && operands.some((w) => /^(list|ls|get|view|show|pull|export|download)$/.test(w)))
    f.push(ask('env_dump', `${name} lists or shows a CI or hosting service's secrets or variables`));
  // One probe per address of a range built at run time (`ping 10.0.0.$i` in a loop): a sweep of the network.
  if (PROBES.test(name) && v.words.some((w) => w.dynamic && /^(\d{1,3}\.){2,3}\$/.test(w.text))) f.push(ask('network_recon', `${name} probes addresses of a range built at run time (a network sweep)`));
  switch (name) {
    case 'date': if (args.some((a) => /^(-s|--set)(=|$)/.test(a))) f.push(ask('destructive_ops', 'date -s sets the machine clock (certificates, logs and tokens depend on it)')); break;
    case 'hwclock': if (args.some((a) => /^(--set|-w|--systohc|--adjust)$/.test(a))) f.push(ask('destructive_ops', 'hwclock sets the hardware clock')); break;
    case 'timedatectl': if (/^(set-time|set-ntp|set-timezone|set-local-rtc)$/.test(operands[0] ?? '')) f.push(ask('destructive_ops', `timedatectl ${operands[0]} changes the machine clock`)); break;
    case 'apt-key': if (/^(add|adv|update|net-update)$/.test(operands[0] ?? '')) f.push(ask('persistence', 'apt-key trusts a signing key for every later package install')); break;
    case 'code': case 'code-insiders': case 'cursor': case 'codium': if (hasLong(parseOptions(args, EDITOR), 'uninstall-extension')) f.push(ask('destructive_ops', `${name} removes an editor extension`)); break;
    case 'npm': case 'pnpm': case 'yarn':
      if (operands.some((w, i) => /^(dist-tag|dist-tags|tag)$/.test(w) && /^(rm|remove)$/.test(operands[i + 1] ?? ''))) f.push(ask('remote_destruction', `${name} removes a tag from a published package`));
      break;
  }
  return f;
}
