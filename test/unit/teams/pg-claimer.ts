// A child process standing in for one editor: it opens the shared board, waits for the parent's
// "go" (so every editor starts claiming at once), claims each task of the list in its own order and
// tells the parent which ones it won. A refusal (someone else holds it) moves on to the next task;
// a task one of its members saw taken is not tried by the others.
import { PgBoardStore, type PgBoardOptions } from '../../../src/core/teams/postgres/pg-board-store';

interface Job { options: PgBoardOptions; team: string; ids: number[]; name: string; claimers: number }

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2]!) as Job;
  const board = await PgBoardStore.open(job.options);
  process.send!({ type: 'ready' });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  const won: number[] = [];
  // What this editor's board already shows as taken (by one of its members or a refusal): not tried again.
  const taken = new Set<number>();
  const claimOne = async (id: number, member: string) => {
    if (taken.has(id)) return;
    try {
      await board.claim(job.team, id, `run-${member}`, { name: member, at: Date.now() });
      won.push(id);
    } catch (e) {
      if (!(e as Error).message.startsWith('Refused:')) throw e;
    }
    taken.add(id);
  };
  // Several members per editor claim at once, each over the list rotated to its own start.
  await Promise.all(Array.from({ length: job.claimers }, async (_, m) => {
    const start = Math.floor((job.ids.length * m) / job.claimers);
    for (const id of [...job.ids.slice(start), ...job.ids.slice(0, start)].reverse()) await claimOne(id, `${job.name}m${m}`);
  }));
  await board.close();
  process.send!({ type: 'done', won });
}

main().catch((e: Error) => {
  process.send!({ type: 'error', message: e.message });
  process.exitCode = 1;
});
