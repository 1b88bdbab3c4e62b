import type { ReindexProgress } from '#lib/search/rebuild-state.ts';

// The progress of `npm run admin -- reindex` on standard error: at a terminal one line redrawn
// in place (a bar, the posts and postings so far, the rate); elsewhere (a log, CI) a line per
// step and per tenth of the posts.

const WIDTH = 30;

function bar(done: number, total: number): string {
  const share = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(share * WIDTH);
  return `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${Math.floor(share * 100)
    .toString()
    .padStart(3)}%`;
}

const count = (n: number) => n.toLocaleString('en');

/** What one state of the rebuild says, on one line. */
export function progressLine(progress: ReindexProgress, now = Date.now()): string {
  const seconds = Math.max(1, (now - progress.started) / 1000);
  switch (progress.phase) {
    case 'count':
      return 'Counting the posts ...';
    case 'put':
      return `Writing postings ${bar(progress.posts, progress.total)} ${count(progress.posts)}/${count(progress.total)} posts, ${count(progress.postingsWritten)} postings (${count(Math.round(progress.postingsWritten / seconds))}/s)`;
    case 'sweep':
      return `Sweeping postings no post wrote again: ${count(progress.postingsDeleted)} deleted`;
    case 'done':
      return `Done: ${count(progress.posts)} posts, ${count(progress.postingsWritten)} postings written, ${count(progress.postingsDeleted)} deleted`;
  }
}

/** A reporter for reindex's onProgress writing to `stream`. */
export function progressReporter(stream: NodeJS.WriteStream = process.stderr): { report: (progress: ReindexProgress) => void; end: () => void } {
  let lastPhase: string | undefined;
  let lastTenth = -1;
  let drawn = false;
  return {
    report: (progress) => {
      const line = progressLine(progress);
      if (stream.isTTY) {
        if (lastPhase !== undefined && lastPhase !== progress.phase && drawn) stream.write('\n');
        stream.write(`\r${line}\u001b[K`);
        drawn = true;
      } else {
        const tenth = progress.total > 0 ? Math.floor((progress.posts / progress.total) * 10) : 0;
        if (progress.phase !== lastPhase || (progress.phase === 'put' && tenth !== lastTenth)) stream.write(`${line}\n`);
        lastTenth = tenth;
      }
      lastPhase = progress.phase;
    },
    end: () => {
      if (stream.isTTY && drawn) stream.write('\n');
    },
  };
}
