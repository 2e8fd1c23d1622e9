// Windows and PowerShell commands that change the machine's state or hide what happened, with the
// everyday commands of the same programs beside them.
import assert from 'node:assert/strict';
import { removeTempDirs } from '../../support/fs-fixtures';
import { judgeIn } from './judge-support';

describe('exec judge: Windows state changed and traces hidden', () => {
  // The workspace is made when this suite starts: another file's after(removeTempDirs) must not take it first.
  let judge: ReturnType<typeof judgeIn>['judge'];
  before(() => { ({ judge } = judgeIn()); });
  after(removeTempDirs);
  const expect = async (decision: 'allow' | 'ask' | 'deny', lines: string[]) => {
    for (const c of lines) assert.equal((await judge(c)).decision, decision, c);
  };

  it('system processes killed, everyone given a system folder, WMI subscriptions, history off and a listing of the home folder deleted are denied', async () => {
    await expect('deny', [
      'taskkill /f /im explorer.exe', 'taskkill /F /IM lsass.exe', 'cacls C:\\Windows\\System32 /e /p Everyone:f', 'icacls "C:\\Program Files\\App" /grant Everyone:F',
      'wmic /namespace:\\\\root\\subscription PATH __EventFilter CREATE Name="f", EventNameSpace="root\\cimv2", QueryLanguage="WQL", Query="SELECT * FROM __InstanceModificationEvent WITHIN 60"',
      'Set-PSReadlineOption -HistorySaveStyle SaveNothing', 'gci $env:USERPROFILE -Include *.docx,*.pdf -Recurse | % { Remove-Item $_ -Force }',
      'Get-ChildItem $HOME -Recurse | ForEach-Object { Remove-Item $_.FullName }', '%0|%0',
    ]);
  });

  it('every process of a user stopped, a profile written, a deleting alias, a headless console and cmd fed by a pipe ask', async () => {
    await expect('ask', [
      'taskkill /F /FI "USERNAME eq dev"', "Set-Content -Path $PROFILE -Value ''", 'Add-Content $PROFILE "iex (gc C:\\x.ps1)"', 'Set-Alias ls Remove-Item',
      'conhost.exe --headless cmd /c a.bat', 'echo rd /s /q %USERPROFILE% | cmd', 'icacls build /grant Everyone:F', 'Get-ChildItem build -Recurse | % { Remove-Item $_ }',
    ]);
  });

  it('a batch file written and then run in the same command is judged on what it holds', async () => {
    await expect('deny', ["echo 'rd /s /q %USERPROFILE%' > x.bat && x.bat", "echo 'rd /s /q %USERPROFILE%' > x.bat && cmd /c x.bat"]);
    await expect('allow', ["echo 'npm test' > t.bat && t.bat", "echo 'npm test' > t.cmd && call t.cmd"]);
  });

  it('the everyday forms of the same programs run', async () => {
    await expect('allow', [
      'taskkill /im node.exe /f', 'taskkill /pid 4242', 'icacls build', 'Set-Content -Path out.txt -Value hello', 'Set-PSReadLineOption -EditMode Emacs',
      'Set-Alias ll Get-ChildItem', 'Get-ChildItem src -Recurse | ForEach-Object { $_.Name }', 'cmd /c npm test', 'wmic cpu get name', 'Get-ChildItem -Recurse -Filter *.ts',
    ]);
  });
});
