import { useEffect, useState } from 'preact/hooks';

type Render = (source: string) => string;
let loading: Promise<Render> | undefined;
let ready: Render | undefined;

/**
 * The renderer (markdown-it and DOMPurify), loaded on first use so the lists' first load stays
 * small. Pages that show Markdown start loading it beside their data, so the text appears with
 * the page instead of moving it afterwards.
 */
export function loadRenderer(): Promise<Render> {
  loading ??= import('../markdown.ts').then((module) => (ready = module.renderMarkdown));
  return loading;
}

/** Markdown, rendered and sanitized (web/src/markdown.ts). */
export function Markdown({ source, class: className = 'prose' }: { source: string; class?: string }) {
  const [html, setHtml] = useState<string | null>(() => (ready ? ready(source) : null));
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
