// Load that does not stop by itself, started through a platform rather than a local program: a
// container of a load generator (or one busy-looping) told to restart for ever, a workload run or
// scaled to hundreds of copies, and a flood ping (as fast as replies come, or with no wait at all).
// A bounded test — a container without a restart policy, a handful of replicas, `ping -c 4` —
// changes nothing of the kind.
import { ask, deny, type Finding, type SegmentView, before } from './command-view';

/** Images and programs whose whole job is to load a machine, and a shell loop that never waits. */
const LOAD = /(^|[/:])(stress(-ng)?|progrium\/stress|polinux\/stress|cpuburn|burnp6|memtester|sysbench|loadgen|xmrig|yes)(:|$)|while\s*(:|true|1)\s*;\s*do\s*:?\s*;?\s*done/i;
/** Replicas past any developer's test of a workload. */
const MANY = 100;

function replicas(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    // `--replicas=N`, `--replicas N`, `--scale svc=N`, `--scale=svc=N`, and `docker service scale svc=N`.
    const value = /^--(replicas|scale)=/.test(args[i]) ? args[i].slice(args[i].indexOf('=') + 1) : /^--(replicas|scale)$/.test(args[i]) ? args[i + 1] ?? '' : /^[\w.-]+=\d+$/.test(args[i]) && before(args, i) === 'scale' ? args[i] : undefined;
    const n = value === undefined ? NaN : Number(value.replace(/^[\w.-]+=/, ''));
    if (n > 0) return n;
  }
  return 0;
}

function containers(v: SegmentView): Finding[] {
  const ops = v.args.filter((a) => !a.startsWith('-'));
  const verb = ops[0];
  if (/^(docker|podman|nerdctl)$/.test(v.name) && /^(run|create)$/.test(verb ?? '')) {
    const forever = v.args.some((a, i) => /^--restart(=(always|unless-stopped|on-failure))?$/.test(a) && (a.includes('=') || /^(always|unless-stopped|on-failure)/.test(v.args[i + 1] ?? '')));
    const loads = v.args.some((a) => LOAD.test(a));
    if (forever && loads) return [deny('destructive_ops', `${v.name} ${verb} starts a load generator that restarts for ever`)];
    if (loads) return [ask('destructive_ops', `${v.name} ${verb} starts a load generator`)];
    return [];
  }
  const n = replicas(v.args);
  if (/^(kubectl|oc|kubecolor)$/.test(v.name) && /^(run|scale|create)$/.test(verb ?? '') || /^(docker|podman)$/.test(v.name) && (verb === 'service' || verb === 'compose') || v.name === 'docker-compose') {
    if (n >= MANY) return [v.args.some((a) => LOAD.test(a)) ? deny('destructive_ops', `${v.name} starts ${n} copies of a busy workload`) : ask('destructive_ops', `${v.name} starts ${n} copies of a workload`)];
  }
  return [];
}

/** `ping -f` sends as fast as replies come, `-i 0` without waiting: a flood, unless to this machine. */
function floodPing(v: SegmentView): Finding[] {
  if (!/^(ping|ping6|fping|hping|hping2|hping3|nping)$/.test(v.name)) return [];
  const flood = v.args.some((a, i) => /^-[a-zA-Z]*f[a-zA-Z]*$/.test(a) && v.name.startsWith('ping') || /^--(flood|faster)$/.test(a) || a === '-i' && /^0(\.0+)?$/.test(v.args[i + 1] ?? '') || /^-i0(\.0+)?$/.test(a));
  if (!flood) return [];
  const local = v.args.some((a) => /^(localhost|127(\.\d+){3}|::1)$/.test(a));
  return [local ? ask('network_recon', `${v.name} floods this machine with packets`) : deny('network_recon', `${v.name} floods another host with packets`)];
}

export function loadConcerns(name: string): boolean {
  return /^(docker|podman|nerdctl|kubectl|oc|kubecolor|docker-compose|ping|ping6|fping|hping|hping2|hping3|nping)$/.test(name);
}

export function loadRules(v: SegmentView): Finding[] {
  switch (v.name) {
    case 'ping': case 'ping6': case 'fping': case 'hping': case 'hping2': case 'hping3': case 'nping': return floodPing(v);
    case 'docker': case 'podman': case 'nerdctl': case 'kubectl': case 'oc': case 'kubecolor': case 'docker-compose': return containers(v);
  }
  return [];
}
