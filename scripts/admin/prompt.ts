// A password typed at the terminal, not echoed: the admin CLI's answer to `--password P`, which
// npm prints back with the command line and the shell keeps in its history.

const ENTER = new Set(['\r', '\n']);
const BACKSPACE = new Set(['\u007f', '\b']);
const INTERRUPT = '\u0003';
const END_OF_INPUT = '\u0004';

/** Asks on standard error (standard output stays the command's result) and reads one line from the terminal. */
export function promptHidden(question: string): Promise<string> {
  const input = process.stdin;
  return new Promise((done) => {
    let typed = '';
    const finish = () => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (ENTER.has(char) || char === END_OF_INPUT) {
          finish();
          done(typed);
          return;
        }
        if (char === INTERRUPT) {
          finish();
          process.exit(130);
        }
        if (BACKSPACE.has(char)) typed = [...typed].slice(0, -1).join('');
        else typed += char;
      }
    };
    input.setEncoding('utf8');
    // Echo goes off before the question shows: an answer typed as soon as it appears is never echoed.
    input.setRawMode(true);
    input.on('data', onData);
    input.resume();
    process.stderr.write(question);
  });
}
