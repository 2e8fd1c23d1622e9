// The hosts the sandbox's network proxy admits by default. Its own module: the command judge reads
// the list too (a program no rule knows may be handed a URL to one of them without a question), and
// must not load the proxy's network modules to do so.

/** Registries and git hosts commands commonly need (npm, yarn, pip, go, cargo, gems, git). */
export const DEFAULT_ALLOWED_DOMAINS: readonly string[] = [
  'registry.npmjs.org', 'registry.yarnpkg.com', 'repo.yarnpkg.com', 'pypi.org', 'files.pythonhosted.org',
  'proxy.golang.org', 'sum.golang.org', 'crates.io', 'index.crates.io', 'static.crates.io', 'rubygems.org',
  'repo.maven.apache.org', 'repo1.maven.org', 'github.com', 'codeload.github.com', 'objects.githubusercontent.com',
  'raw.githubusercontent.com', 'gitlab.com', 'bitbucket.org', 'deb.debian.org', 'security.debian.org',
];
