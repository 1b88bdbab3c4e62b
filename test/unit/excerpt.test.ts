import { describe, expect, it } from 'vitest';
import { cutText, excerptOf, plainText, readingTimeMinutes } from '#lib/posts/excerpt.ts';

// A summary's excerpt and reading time (docs/api.md, "Summaries"): Markdown made plain, cut at
// 300 code points on a word boundary, and the description's words / 265 rounded up.

describe('plain text of Markdown', () => {
  it('drops heading, emphasis, list and quote marks; links and images keep their text; inline code its text', () => {
    expect(plainText('# Title\n\n**bold** and _em_ [a link](https://x.example) ![an image](i.png) `code()`\n\n> quoted\n\n- one\n- two\n\n1. first')).toBe(
      'Title bold and em a link an image code() quoted one two first',
    );
  });

  it('drops fenced and indented code blocks', () => {
    expect(plainText('before\n\n```js\nfenced()\n```\n\n    indented()\n\nafter')).toBe('before after');
  });

  it('drops HTML tags, and script and style elements with their content; decodes character references', () => {
    expect(plainText('a <b>bold</b> <script>alert(1)</script> b\n\n<div>block<style>p{color:red}</style> &eacute;&amp;&#x41;</div>\n\nend &lt;tag&gt;')).toBe(
      'a bold b block é&A end <tag>',
    );
    expect(plainText('<script>\nsteal()\n</script>\n\ntext')).toBe('text');
    expect(plainText('x <!-- a comment --> y')).toBe('x y');
  });

  it('keeps the cells of a table; collapses whitespace and trims', () => {
    expect(plainText('| a | b |\n|---|---|\n| c | d |')).toBe('a b c d');
    expect(plainText('  many\n\n\n   spaces\there  ')).toBe('many spaces here');
  });
});

describe('the cut', () => {
  it('keeps a text of at most 300 code points whole', () => {
    const text = 'é'.repeat(299) + '😀';
    expect(cutText(text)).toBe(text);
  });

  it('cuts a longer text at the last whitespace within the first 300 code points, trimmed, with …', () => {
    const words = 'word '.repeat(100).trim();
    const cut = cutText(words);
    expect(cut.endsWith('word…')).toBe(true);
    expect([...cut.slice(0, -1)].length).toBeLessThanOrEqual(300);
    expect(cut).toBe(`${'word '.repeat(60).trim()}…`);
  });

  it('cuts at 300 itself when there is no whitespace, counting code points (not UTF-16 units)', () => {
    const cut = cutText('😀'.repeat(400));
    expect([...cut]).toHaveLength(301);
    expect(cut.endsWith('😀…')).toBe(true);
  });
});

describe('the excerpt', () => {
  it('comes from the meta description when it holds more than whitespace, else from the description', () => {
    expect(excerptOf({ description: '*From* the description', meta_description: 'From the **meta**' })).toBe('From the meta');
    expect(excerptOf({ description: '*From* the description', meta_description: ' \n\t ' })).toBe('From the description');
    expect(excerptOf({ description: '*From* the description', meta_description: null })).toBe('From the description');
  });
});

describe('the reading time', () => {
  it('counts runs of letters and digits in the description as written, / 265 rounded up, at least 1', () => {
    expect(readingTimeMinutes('')).toBe(1);
    expect(readingTimeMinutes('word '.repeat(265))).toBe(1);
    expect(readingTimeMinutes('word '.repeat(266))).toBe(2);
    // Markdown marks are no words; "don't" is two runs; accented letters and digits count.
    expect(readingTimeMinutes('## *** --- ')).toBe(1);
    expect(readingTimeMinutes(`${"don't ".repeat(133)}`)).toBe(2);
    expect(readingTimeMinutes('café 2026 '.repeat(133))).toBe(2);
  });
});
