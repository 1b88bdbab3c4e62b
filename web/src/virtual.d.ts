// Modules that the build makes (vite.config.ts).

declare module 'virtual:renderer-url' {
  /** The absolute address of the Markdown renderer's chunk. */
  const url: string;
  export default url;
}

declare module 'virtual:comments-url' {
  /** The absolute address of the comments' chunk. */
  const url: string;
  export default url;
}
