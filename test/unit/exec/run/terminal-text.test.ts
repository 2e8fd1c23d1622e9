// Terminal output as a person sees it: colours and shell-integration marks gone, carriage-return
// redraws settled to their last state, CRLF as LF, also when a sequence is split across chunks.
import assert from 'node:assert/strict';
import { TerminalTextDecoder, terminalToText } from '../../../../src/core/exec/run/terminal-text';
import { rng } from '../../../support/rng';

const ESC = '\x1b';
const BEL = '\x07';

/** A realistic shell-integration transcript: prompt marks, the command line, colours, a progress bar. */
const transcript =
  `${ESC}]633;A${BEL}${ESC}[01;32muser@host${ESC}[00m:${ESC}[01;34m~/ws${ESC}[00m$ ${ESC}]633;B${BEL}` +
  `${ESC}]633;E;npm test;4f1c${BEL}${ESC}]633;C${BEL}\r\n` +
  `${ESC}[1mRunning${ESC}[22m 3 suites\r\n` +
  'progress [#         ] 10%\rprogress [#####     ] 50%\rprogress [##########] 100%\r\n' +
  `${ESC}[31m✗ one failed${ESC}[39m\r\n` +
  `${ESC}]133;D;1${ESC}\\${ESC}]633;D;1${BEL}${ESC}]633;P;Cwd=/home/user/ws${BEL}`;

const expected = 'user@host:~/ws$ \nRunning 3 suites\nprogress [##########] 100%\n✗ one failed\n';

describe('terminal text', () => {
  it('strips CSI, OSC 633/133 and settles a progress bar to its last state', () => {
    assert.equal(terminalToText(transcript), expected);
  });

  it('gives the same text however the stream is split (every split point, and random chunks)', () => {
    for (let at = 0; at <= transcript.length; at++) {
      const d = new TerminalTextDecoder();
      const got = d.push(transcript.slice(0, at)) + d.push(transcript.slice(at)) + d.end();
      assert.equal(got, expected, `split at ${at}: ${JSON.stringify(transcript.slice(at - 3, at + 3))}`);
    }
    const rand = rng(11);
    for (let round = 0; round < 50; round++) {
      const d = new TerminalTextDecoder();
      let got = '';
      for (let i = 0; i < transcript.length;) {
        const len = 1 + Math.floor(rand() * 7);
        got += d.push(transcript.slice(i, i + len));
        i += len;
      }
      assert.equal(got + d.end(), expected);
    }
  });

  it('push returns whole lines; the unfinished one waits (partial shows it) until end()', () => {
    const d = new TerminalTextDecoder();
    assert.equal(d.push('Downloading 10%'), '');
    assert.equal(d.partial, 'Downloading 10%');
    assert.equal(d.push('\rDownloading 99%'), '');
    assert.equal(d.push('\r'), '', 'a CR at a chunk end may still be a CRLF');
    assert.equal(d.push('\nPassword: '), 'Downloading 99%\n');
    assert.equal(d.flush(), 'Password: ');
    assert.equal(d.end(), '');
  });

  it('applies overwrites, erase-in-line and backspace within a line', () => {
    assert.equal(terminalToText('abcdef\rxy\n'), 'xycdef\n', 'a shorter redraw overwrites only its width');
    assert.equal(terminalToText(`abcdef\r${ESC}[Kxy\n`), 'xy\n', 'CSI K erases to the end');
    assert.equal(terminalToText(`abcdef${ESC}[2K\rxy\n`), 'xy\n');
    assert.equal(terminalToText('abc\b\bZ\n'), 'aZc\n');
    assert.equal(terminalToText(`12345${ESC}[3D${ESC}[1Cx\n`), '123x5\n');
    assert.equal(terminalToText(`ab${ESC}[10Gz\n`), 'ab       z\n');
  });

  it('removes DCS, APC, charset selection, private modes, C1 controls and stray controls', () => {
    assert.equal(terminalToText(`a${ESC}P1$r0m${ESC}\\b${ESC}_hidden${ESC}\\c\n`), 'abc\n');
    assert.equal(terminalToText(`${ESC}(Bplain${ESC}[?25l${ESC}[?2004h text${ESC}=${ESC}7\n`), 'plain text\n');
    assert.equal(terminalToText('x\x9b31my\x9d0;title\x07z\x00\x07\n'), 'xyz\n');
    assert.equal(terminalToText(`link: ${ESC}]8;;https://example.invalid${ESC}\\here${ESC}]8;;${ESC}\\\n`), 'link: here\n');
  });

  it('normalises CRLF and keeps tabs and Unicode', () => {
    assert.equal(terminalToText('a\r\nb\r\n\r\n😀\tz'), 'a\nb\n\n😀\tz');
  });

  it('does not swallow text after an unterminated or malformed sequence', () => {
    assert.equal(terminalToText(`before${ESC}[12\nafter\n`), 'before\nafter\n', 'a line feed ends a broken CSI');
    const long = `x${ESC}]0;${'t'.repeat(70_000)}tail\n`;
    assert.match(terminalToText(long), /tail\n$/, 'an OSC body without end is given up after 64 KB');
  });

  it('bounds a line that never ends', () => {
    const d = new TerminalTextDecoder();
    const out = d.push('y'.repeat(1_500_000));
    assert.equal(out.length, 1_500_000, 'emitted once past 1 MB without a line feed');
    assert.equal(d.partial, '');
  });
});
