// The judge's rule dispatch (RULES in command-dispatch.ts): a rule scoped to the programs it concerns
// is skipped for every other program, so its `concerns` must accept every program it can object to.
// Checked two ways: each `case '…':` label in the rule names a program `concerns` accepts, and no
// scoped rule objects to a program it turns away on any argv of the corpora. The program-specific
// parts of split rules (declared with their program names) are held to the same, through the index.
// A scoped rule with `when` also runs on the other argvs `when` accepts: on every argv of the
// corpora that both turn away, it must not object either, and the judge must run it on those it accepts.
// `when` is asked only of argvs with a trait its `needs` names (command-traits.ts): on every argv of
// the corpora that `when` accepts, the argv has one.
import assert from 'node:assert/strict';
import { unwrapInner } from '../../../src/core/exec/command-flow';
import { RULES, rulesOf } from '../../../src/core/exec/command-judge';
import { dispatchOf } from '../../../src/core/exec/command-dispatch';
import { parseCommand } from '../../../src/core/exec/command-parse';
import { namesOf, viewOf, type SegmentView } from '../../../src/core/exec/command-view';
import { T_ANY, T_ODD_HOME, traitsOf } from '../../../src/core/exec/command-traits';
import { ANY_WORD, mayBeAnyWord } from '../../../src/core/exec/command-rules-generic';
import { corpus } from './judge-support';

const SCOPED = RULES.filter((r) => typeof r !== 'function');

describe('exec judge: rule dispatch by program', () => {
  it('a rule listed bare meets every program, a scoped one only those it concerns', () => {
    const bare = RULES.filter((r) => typeof r === 'function');
    assert.ok(bare.length > 0 && SCOPED.length > 0);
    for (const name of ['some-unknown-tool', 'rm', '']) for (const r of bare) assert.ok(rulesOf(name).includes(r), name);
    for (const r of SCOPED) {
      assert.ok(!rulesOf('some-unknown-tool').includes(r.rule), `${r.rule.name} is scoped, yet meets an unknown program`);
      const named = [...r.rule.toString().matchAll(/case '([^']+)':/g)].map((m) => m[1]);
      // A part declared by its program names delegates to checks gated by name; the list itself must reach it.
      if (r.programs) named.push(...r.programs);
      for (const n of named) {
        assert.ok(r.concerns(n), `${r.rule.name} has a case for ${n}, which its concerns() turns away`);
        assert.ok(rulesOf(n).includes(r.rule), n);
      }
    }
  });

  it('a rule with `when` meets every argv of a program it concerns, and another program only through `when`', () => {
    const gated = SCOPED.filter((r) => r.when);
    assert.ok(gated.length >= 3, `only ${gated.length} rules with when`);
    assert.ok(SCOPED.some((r) => /case '[^']+':/.test(r.rule.toString())), 'no scoped rule has case labels to check');
    for (const r of gated) {
      const d = dispatchOf('some-unknown-tool');
      const at = d.rules.indexOf(r.rule);
      assert.ok(at >= 0 && d.when[at] === r.when, `${r.rule.name} never meets an unknown program`);
    }
    // The order of RULES is the order of findings: a gated rule keeps its place among the others.
    const all = RULES.map((r) => (typeof r === 'function' ? r : r.rule));
    assert.deepEqual(dispatchOf('some-unknown-tool').rules, all.filter((r) => dispatchOf('some-unknown-tool').rules.includes(r)));
  });

  it('a split rule keeps one part per program list, met only by those names', () => {
    const parts = SCOPED.filter((r) => r.programs);
    assert.ok(parts.length >= 5, `only ${parts.length} program-specific parts`);
    assert.equal(new Set(parts.map((r) => r.rule)).size, parts.length, 'a part listed twice would report its findings twice');
    for (const r of parts) {
      assert.ok(r.programs!.length > 0, r.rule.name);
      for (const n of ['some-unknown-tool', '', 'constructor', '__proto__']) assert.ok(!rulesOf(n).includes(r.rule), `${r.rule.name} meets ${n}`);
    }
    // The list is read from the rule's own pattern: a pattern that is not a plain list of names is refused, not misread.
    assert.deepEqual(namesOf(/^(curl|gst-launch-1\.0|wget2)$/), ['curl', 'gst-launch-1.0', 'wget2']);
    for (const re of [/^(curl|wget.*)$/, /^(python\d)$/, /^(curl|wget)$/i, /^(curl|wget)/, /(^|-)xmrig$/, /^(a(b|c))$/]) assert.throws(() => namesOf(re), /not a list of names/, re.source);
  });

  it('no scoped rule objects to a program it turns away, on any argv of the corpora', async function () {
    this.timeout(120_000);
    const views = await corpusViews();
    assert.ok(views.length > 5000, `only ${views.length} argvs`);
    const missed: string[] = [];
    for (const r of SCOPED) {
      for (const v of views) {
        // As the judge dispatches: `when` is asked only when the argv has a trait `needs` names.
        if (r.concerns(v.name) || (r.when && (traitsOf(v) & (r.needs ?? T_ANY)) !== 0 && r.when(v))) continue;
        for (const pipedOut of [false, true]) {
          const f = r.rule(v, pipedOut);
          if (f.length) missed.push(`${r.rule.name} on ${v.name}: ${f[0].reason}`);
        }
      }
    }
    assert.deepEqual(missed, [], 'scoped rules that would have objected to an argv they turn away');
  });

  it('a gate accepts an argv only when the argv has a trait the gate needs, on every argv of the corpora', async function () {
    this.timeout(120_000);
    const views = await corpusViews();
    const gated = SCOPED.filter((r) => r.when);
    assert.ok(gated.every((r) => r.needs !== undefined && r.needs !== T_ANY), 'a gate without needs is asked of every argv');
    const wrong: string[] = [];
    let skipped = 0;
    for (const v of views) {
      // The judge adds the home's trait (T_ODD_HOME) when os.homedir() has no `/`; here it has one, so
      // only the argv's own traits count.
      const t = traitsOf(v);
      for (const r of gated) {
        if ((t & r.needs!) === 0) skipped++;
        if (r.when!(v) && (t & r.needs!) === 0) wrong.push(`${r.when!.name} accepts ${v.name} ${v.args.join(' ')}, which has none of its traits`);
      }
    }
    assert.deepEqual(wrong.slice(0, 20), []);
    // The traits must skip gates, or they only add a pass: most gate calls on the corpora are skipped.
    assert.ok(skipped > (views.length * gated.length) / 2, `only ${skipped} of ${views.length * gated.length} gate calls skipped`);
    assert.ok(T_ODD_HOME !== 0 && (T_ANY & T_ODD_HOME) !== 0);
  });
});

describe('exec judge: the generic gate\'s word filter', () => {
  it('turns away no word ANY_WORD accepts, and settles paths and globs without it', async function () {
    this.timeout(120_000);
    const words = new Set<string>([
      '//registry.npmjs.org/:_authToken', 'user.password', 'db:drop', 'app.prod:delete', 'my.api-key', 'conf/keys', 'pip.index-url',
      'x/y.registry-url', 'a.PASSWD', 'deleteUser2', 'drop_table', 'publish', 'get-login-password', 'ENV', 'Äpi-key', 'x.token',
    ]);
    for (const v of await corpusViews()) for (const w of v.operands) words.add(w);
    const missed = [...words].filter((w) => ANY_WORD.test(w) && !mayBeAnyWord(w));
    assert.deepEqual(missed, []);
    for (const w of ['out/test/unit/**/*.test.js', 'src/a.ts', 'test-output.log', 'passing|failing|pending', 'packages/core']) assert.equal(mayBeAnyWord(w), false, w);
    for (const w of ['//registry.npmjs.org/:_authToken', 'user.password', 'my.api-key', 'status']) assert.equal(mayBeAnyWord(w), true, w);
  });
});

let views: SegmentView[] | undefined;
/** Every argv of the corpora: each segment's own, and the commands inside its wrappers. */
async function corpusViews(): Promise<SegmentView[]> {
  if (views) return views;
  const out: SegmentView[] = [];
  for (const c of [...corpus('hostile'), ...corpus('hostile-classes'), ...corpus('benign'), ...corpus('benign-docs')]) {
    for (const seg of (await parseCommand(c)).segments) out.push(viewOf(seg), ...unwrapInner(seg).map((a) => viewOf(seg, a)));
  }
  views = out;
  return out;
}
