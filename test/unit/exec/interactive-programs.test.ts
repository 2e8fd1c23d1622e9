// Which commands started with interactive: true read commands from their input (a shell, a REPL, a
// database shell) — those are asked about and their lines judged — and which only read data.
import assert from 'node:assert/strict';
import { inputTargetOfCommand } from '../../../src/core/exec/tools/interactive-programs';

describe('interactive programs that read commands', () => {
  const cases: [string, string | undefined][] = [
    ['bash', 'shell'], ['sh', 'shell'], ['zsh -l', 'shell'], ['fish', 'shell'], ['dash', 'shell'], ['ksh', 'shell'], ['busybox sh', 'shell'],
    ['pwsh -NoLogo', 'shell'], ['pwsh -NoExit -Command ls', 'shell'], ['bash -i script.sh', 'shell'], ['bash -s', 'shell'], ['/bin/bash --norc', 'shell'],
    ['sudo -i', 'shell'], ['su -', 'shell'], ['ssh build-host', 'shell'], ['docker exec -it box bash', 'shell'], ['cd src && bash -l', 'shell'],
    ['exec bash', 'shell'], ['env FOO=1 sh', 'shell'], ['poetry shell', 'shell'], ['nix develop', 'shell'],
    ['python3', 'repl'], ['python3.12 -i app.py', 'repl'], ['node', 'repl'], ['node -i -e "x=1"', 'repl'], ['irb', 'repl'], ['ruby', 'repl'], ['perl -de0', 'repl'],
    ['php -a', 'repl'], ['lua5.4', 'repl'], ['R --vanilla', 'repl'], ['julia', 'repl'], ['ghci Main.hs', 'repl'], ['nice -n 5 python3', 'repl'],
    ['deno', 'repl'], ['stack ghci', 'repl'], ['rails console', 'repl'],
    ['psql -h db -U app appdb', 'database'], ['mysql -uroot shop', 'database'], ['sqlite3 app.db', 'database'], ['redis-cli -h cache', 'database'],
    ['mongosh mongodb://localhost/test', 'database'], ['ssh db-host psql', 'database'], ['kubectl exec -it pod -- psql', 'database'],
    // A REPL beside a shell: the stricter one decides how lines are treated.
    ['bash; python3', 'repl'],
    // Programs that get their code in the command line, or read only data: the judge sees what runs.
    ['bash build.sh', undefined], ['bash -c "read x; echo $x"', undefined], ['bash -lc make', undefined], ['sh --version', undefined],
    ['pwsh -Command Get-Date', undefined], ['python3 app.py', undefined], ['python3 -c "print(1)"', undefined], ['python3 -m http.server', undefined],
    ['node server.js', undefined], ['node -e "1"', undefined], ['perl -e 1', undefined], ['php -r "echo 1;"', undefined], ['ruby -e 1', undefined],
    ['psql -c "select 1"', undefined], ['psql -f schema.sql appdb', undefined], ['mysql -e "show tables"', undefined], ['sqlite3 app.db "select 1"', undefined],
    ['redis-cli get key', undefined], ['ssh build-host make', undefined], ['docker exec -it box make test', undefined], ['sudo apt-get update', undefined],
    ['npm init', undefined], ['npx jest --watch', undefined], ['cat', undefined], ['read -r answer; echo "$answer"', undefined], ['git add -p', undefined],
  ];
  for (const [command, kind] of cases) {
    it(`${command} → ${kind ?? 'reads data only'}`, async () => {
      assert.equal((await inputTargetOfCommand(command))?.kind, kind);
    });
  }
});
