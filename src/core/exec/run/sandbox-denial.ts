// Telling a failure the sandbox caused from an ordinary one, in plain words. Two signs count: a
// write refused because the file system is read-only there (EROFS, which outside the sandbox's
// writable folders only the sandbox produces), and a host the proxy refused (it keeps the list).
// A command that reached for the network without the proxy fails to resolve any name: that is
// reported too. Only a run that failed is examined: a refusal the command shrugged off is no cause.
import type { ProxyRefusal } from './sandbox-proxy';

export interface SandboxDenial {
  kind: 'write' | 'network';
  /** One sentence: what was refused and why. */
  detail: string;
}

const EROFS = /read-only file system|\bEROFS\b/i;
/** A path in an error line: quoted, or the word before `: Read-only file system`. */
const QUOTED_PATH = /['"`‘](\/[^'"`’\n]+)['"`’]/;
const BARE_PATH = /(\/[^\s:'"]+):\s*(?:cannot [^:]*:\s*)?read-only file system/i;
const NO_DNS = /could not resolve host|temporary failure in name resolution|getaddrinfo (?:EAI_AGAIN|ENOTFOUND)|name or service not known|network is unreachable|ENETUNREACH/i;

/** Follows a run's output and remembers the lines that show the sandbox refusing something. */
export class DenialWatcher {
  private partial = '';
  private readonly writePaths: string[] = [];
  private erofs = false;
  private unresolved = false;

  push(chunk: string): void {
    const text = this.partial + chunk;
    const lines = text.split('\n');
    this.partial = (lines.pop() ?? '').slice(-4000);
    for (const line of lines) this.line(line);
  }

  private line(line: string): void {
    if (EROFS.test(line)) {
      this.erofs = true;
      const p = QUOTED_PATH.exec(line)?.[1] ?? BARE_PATH.exec(line)?.[1];
      if (p && this.writePaths.length < 5 && !this.writePaths.includes(p)) this.writePaths.push(p);
    } else if (NO_DNS.test(line)) {
      this.unresolved = true;
    }
  }

  /**
   * The denial behind a failed run, if the sandbox caused one. `ownNetwork`: the run had the host's
   * network, so a name that did not resolve is not the sandbox's doing.
   */
  verdict(failed: boolean, refusals: readonly ProxyRefusal[], ownNetwork = false): SandboxDenial | undefined {
    if (this.partial) this.line(this.partial);
    this.partial = '';
    if (!failed) return undefined;
    if (refusals.length) {
      // A name that was allowed but resolved to the machine's own or a private network says so.
      const reasons = [...new Set(refusals.flatMap((r) => (r.reason ? [r.reason] : [])))].slice(0, 3);
      const hosts = [...new Set(refusals.filter((r) => !r.reason).map((r) => r.host))].slice(0, 5);
      const parts = [
        ...(hosts.length ? [`${hosts.join(', ')} (not in the allowed domains, pincer.exec.sandbox.allowDomains)`] : []),
        ...(reasons.length ? [`${reasons.join('; ')} (only a host listed by its exact name in pincer.exec.sandbox.allowDomains may resolve to a loopback, private or link-local address)`] : []),
      ];
      return { kind: 'network', detail: `the sandbox's network proxy refused ${parts.join('; and ')}` };
    }
    if (this.erofs) {
      const where = this.writePaths.length ? ` to ${this.writePaths.join(', ')}` : '';
      return { kind: 'write', detail: `a write${where} was refused: the sandbox lets commands write only in the workspace folders, package caches and a private /tmp` };
    }
    if (this.unresolved && !ownNetwork) {
      return { kind: 'network', detail: 'it tried to reach the network without the proxy (no name resolves inside the sandbox; only HTTP(S) through HTTP_PROXY/HTTPS_PROXY to allowed domains gets out)' };
    }
    return undefined;
  }
}
