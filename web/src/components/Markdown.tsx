import { useEffect, useState } from 'preact/hooks';

type Render = (source: string) => string;
let renderer: Promise<Render> | undefined;

/** The renderer, loaded on first use: markdown-it and DOMPurify stay out of the lists' first load. */
function loadRenderer(): Promise<Render> {
  renderer ??= import('../markdown.ts').then((module) => module.renderMarkdown);
  return renderer;
}

/** Markdown, rendered and sanitized (web/src/markdown.ts). */
export function Markdown({ source, class: className = 'prose' }: { source: string; class?: string }) {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    loadRenderer().then((render) => {
      if (current) setHtml(render(source));
    });
    return () => {
      current = false;
    };
  }, [source]);
  if (html === null) return <div class={className} aria-busy="true" />;
  // The HTML is DOMPurify's output with the allow-list of markdown.ts.
  return <div class={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
