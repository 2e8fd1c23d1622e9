// What becomes of files dropped on the chat from VS Code's Explorer (dropped-files.ts): image files of
// the workspace are read and attached as images, other files become file chips; a path that climbs out
// of the workspace with `..`, a look-alike folder name, a file outside it, a folder, a missing file,
// an image over 20 MB and a fifth image are refused, each with the reason.
import assert from 'node:assert/strict';
import { imageTypeOf, insideRoots, planDrop, type DroppedEntry } from '../../../src/core/chat/dropped-files';

const file = (path: string, size = 100): DroppedEntry => ({ path, kind: 'file', size });
const WS = () => ['/home/me/ws'];

describe('files dropped from the Explorer', () => {
  it('benign: images of the workspace become images to read, other files file chips, in order', () => {
    const plan = planDrop([file('/home/me/ws/docs/shot.PNG'), file('/home/me/ws/src/a.ts'), file('/home/me/ws/photo.jpeg'), file('/home/me/ws/README')], WS);
    assert.deepEqual(plan.images.map((i) => [i.rel, i.mimeType]), [['docs/shot.PNG', 'image/png'], ['photo.jpeg', 'image/jpeg']]);
    assert.deepEqual(plan.chips, [{ kind: 'file', path: 'src/a.ts', origin: 'user' }, { kind: 'file', path: 'README', origin: 'user' }]);
    assert.deepEqual(plan.refused, []);
  });

  it('a second workspace folder holds its own files', () => {
    const plan = planDrop([file('/srv/other/logo.gif')], () => ['/home/me/ws', '/srv/other/']);
    assert.deepEqual(plan.images.map((i) => i.rel), ['logo.gif']);
  });

  it('hostile: `..` out of the workspace, a look-alike folder, the root itself and an outside file are refused', () => {
    const plan = planDrop([
      file('/home/me/ws/../.ssh/id_rsa.png'), file('/home/me/ws-evil/x.png'), file('/home/me/ws'), file('/etc/passwd'), file('/home/me/ws/a/../../ws2/b.ts'),
    ], WS);
    assert.deepEqual(plan.images, []);
    assert.deepEqual(plan.chips, []);
    assert.deepEqual(plan.refused, [
      '/home/me/.ssh/id_rsa.png is outside this workspace: drop it from your desktop instead, or copy it into the workspace.',
      '/home/me/ws-evil/x.png is outside this workspace: drop it from your desktop instead, or copy it into the workspace.',
      '/home/me/ws is outside this workspace: drop it from your desktop instead, or copy it into the workspace.',
      '/etc/passwd is outside this workspace: drop it from your desktop instead, or copy it into the workspace.',
      '/home/me/ws2/b.ts is outside this workspace: drop it from your desktop instead, or copy it into the workspace.',
    ]);
    assert.equal(insideRoots('/home/me/ws/./a/../b.png', ['/home/me/ws']), 'b.png', 'a path that stays inside is fine after normalising');
    assert.deepEqual(planDrop([file('/home/me/ws/x.png')], () => []).refused.length, 1, 'a file of another file system (no folders there) is outside');
  });

  it('a folder, a missing file, an image over 20 MB and a fifth image are refused with the reason', () => {
    const plan = planDrop([
      { path: '/home/me/ws/src', kind: 'folder' }, { path: '/home/me/ws/gone.png', kind: 'missing' }, file('/home/me/ws/huge.png', 25_000_000),
      file('/home/me/ws/1.png'), file('/home/me/ws/2.png'), file('/home/me/ws/3.webp'), file('/home/me/ws/4.gif'), file('/home/me/ws/5.jpg'),
    ], WS);
    assert.deepEqual(plan.images.map((i) => i.rel), ['1.png', '2.png', '3.webp', '4.gif']);
    assert.deepEqual(plan.refused, [
      'src is a folder: drop the files in it, or name it in your message.',
      'gone.png was not found.',
      'huge.png is 25.0 MB; an image may have at most 20 MB.',
      '5.jpg was not added: a message takes at most 4 images.',
    ]);
  });

  it('the image type comes from the name\'s extension only (the bytes are checked later); an SVG or a dotted folder is not one', () => {
    assert.equal(imageTypeOf('a/b.WebP'), 'image/webp');
    assert.equal(imageTypeOf('logo.svg'), undefined);
    assert.equal(imageTypeOf('pics.png/readme'), undefined);
    assert.equal(imageTypeOf('png'), undefined);
  });
});
