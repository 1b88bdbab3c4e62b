// The part of jsdom the page renderer uses (the package ships no types of its own).
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string);
    readonly window: unknown;
  }
}
